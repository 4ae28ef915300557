import type { ToolArguments, ToolPathArgument } from '@weir/core';

/**
 * The string values at a tool's declared path arguments (`path`, `options.target`, `paths[]`,
 * `edits[].file_path`): the files a writing call may change. Missing or non-string values are
 * skipped (the tool refuses those itself). Never throws.
 */
export function declaredPaths(args: ToolArguments, specs: readonly ToolPathArgument[]): string[] {
  const found: string[] = [];
  for (const spec of specs) {
    const pointer = typeof spec === 'string' ? spec : spec.argument;
    collect(args, pointer.split('.'), 0, found);
  }
  return found;
}

function collect(value: unknown, segments: readonly string[], index: number, found: string[]): void {
  if (index === segments.length) {
    if (typeof value === 'string' && value !== '') found.push(value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const segment = segments[index]!;
  const each = segment.endsWith('[]');
  const next = (value as Record<string, unknown>)[each ? segment.slice(0, -2) : segment];
  if (!each) return collect(next, segments, index + 1, found);
  if (Array.isArray(next)) for (const item of next) collect(item, segments, index + 1, found);
}
