import type { PluginContext } from '@weir/core';

type Rewrite = { readonly action: 'rewrite'; readonly arguments: Record<string, unknown> } | { readonly action: 'block'; readonly reason: string };

/**
 * Argument names models were trained on (other harnesses' file tools), by tool: alias to the
 * canonical name. `end_line` (read_file) is special: it becomes `limit`, counted from `offset`.
 */
export const ARGUMENT_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  read_file: Object.freeze({ file_path: 'path', start_line: 'offset' }),
  write_file: Object.freeze({ file_path: 'path' }),
  edit_file: Object.freeze({ file_path: 'path', oldString: 'old_string', newString: 'new_string', replaceAll: 'replace_all' }),
});

/**
 * The stage-1 rewrite of an aliased call to canonical names, so that guards, approvals, safety
 * rules and session records only ever see `path`, `old_string`...: `undefined` when there is
 * nothing to rewrite, a block when an alias and its canonical name disagree. Never throws.
 */
export function rewriteAliases(toolName: string, args: Readonly<Record<string, unknown>>): Rewrite | undefined {
  const aliases = ARGUMENT_ALIASES[toolName];
  if (aliases === undefined) return undefined;
  const out: Record<string, unknown> = { ...args };
  let changed = false;
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (!(alias in out)) continue;
    const value = out[alias];
    delete out[alias];
    changed = true;
    if (canonical in out && out[canonical] !== value) {
      return { action: 'block', reason: `${alias} is another name for ${canonical}; give ${canonical} once (they differ here).` };
    }
    out[canonical] = value;
  }
  if (toolName === 'read_file' && 'end_line' in out) {
    const end = out.end_line;
    delete out.end_line;
    changed = true;
    const start = typeof out.offset === 'number' ? out.offset : 1;
    if (typeof end !== 'number' || end < start) return { action: 'block', reason: `end_line must be a line number at or after the first line (${start}); read_file takes offset (first line) and limit (number of lines).` };
    if ('limit' in out && out.limit !== end - start + 1) return { action: 'block', reason: 'end_line and limit disagree; give limit (number of lines) only.' };
    out.limit = end - start + 1;
  }
  return changed ? { action: 'rewrite', arguments: out } : undefined;
}

/** Taps `prepareExecution` of the harness with the rewrite, for the tools named in `ARGUMENT_ALIASES`. */
export function tapArgumentAliases(hooks: PluginContext['hooks']): void {
  hooks.prepareExecution.tap({ name: 'tools-fs/aliases' }, (preparation, context) => {
    if (preparation.status !== 'ready') return undefined;
    return rewriteAliases(context.toolName, preparation.arguments);
  });
}
