import type { ToolArguments } from '@weir/core';

/** One path argument as a tool declares it (see `ToolFiles` in core). */
export interface PathArgumentSpec {
  /** Where the path sits: `path`, `options.target` (nested), `paths[]` (an array), `edits[].file_path`. */
  readonly argument: string;
  /** What the path names; default `file`. A directory is resolved as one; `any` tries a file, then a directory. */
  readonly kind?: 'file' | 'directory' | 'any';
  /** What the tool uses when the argument is omitted (`.` for a search of the whole workspace). */
  readonly default?: string;
}

/** One value found at a declared place: a label for messages, and the value (or that it is missing). */
export interface FoundPath {
  readonly argument: string;
  readonly value: unknown;
  readonly missing: boolean;
  readonly spec: PathArgumentSpec;
}

interface Segment {
  readonly key: string;
  readonly each: boolean;
}

const SEGMENT = /^([^.[\]]+)(\[\])?$/;

/** Parses `edits[].file_path` into segments; `undefined` for a malformed pointer. */
export function parsePointer(pointer: string): readonly Segment[] | undefined {
  if (typeof pointer !== 'string' || pointer === '') return undefined;
  const segments: Segment[] = [];
  for (const part of pointer.split('.')) {
    const match = SEGMENT.exec(part);
    if (match === null) return undefined;
    segments.push({ key: match[1]!, each: match[2] !== undefined });
  }
  return segments;
}

/**
 * Every value at the declared places of `args`. An omitted argument takes its declared default;
 * without one it is reported missing (so path rules fail closed on it), and so is a container
 * on the way that is not an object or an array where one is declared. Never throws.
 */
export function findDeclaredPaths(args: ToolArguments, specs: readonly PathArgumentSpec[]): FoundPath[] {
  const found: FoundPath[] = [];
  for (const spec of specs) {
    const segments = parsePointer(spec.argument);
    if (segments === undefined) {
      found.push({ argument: spec.argument, value: undefined, missing: true, spec });
      continue;
    }
    walk(args, segments, 0, '', spec, found);
  }
  return found;
}

function walk(value: unknown, segments: readonly Segment[], index: number, label: string, spec: PathArgumentSpec, found: FoundPath[]): void {
  if (index === segments.length) {
    found.push({ argument: label, value, missing: false, spec });
    return;
  }
  const segment = segments[index]!;
  const here = label === '' ? segment.key : `${label}.${segment.key}`;
  const container = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (container === undefined || !Object.hasOwn(container, segment.key) || container[segment.key] === undefined) {
    // An omitted leaf takes the tool's default; anything else omitted cannot be checked.
    if (index === segments.length - 1 && spec.default !== undefined) found.push({ argument: here, value: spec.default, missing: false, spec });
    else found.push({ argument: here, value: undefined, missing: true, spec });
    return;
  }
  const next = container[segment.key];
  if (!segment.each) {
    walk(next, segments, index + 1, here, spec, found);
    return;
  }
  if (!Array.isArray(next)) {
    // Declared as an array and given something else: checked as it is (a non-string fails closed).
    found.push({ argument: here, value: next, missing: false, spec });
    return;
  }
  next.forEach((item, position) => walk(item, segments, index + 1, `${here}[${position}]`, spec, found));
}
