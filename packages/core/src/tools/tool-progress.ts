/**
 * One progress report of a running tool: what it is doing, and how far it got. Every field is
 * optional; `progress` without `total` is a count (bytes read, files seen), with `total` a fraction.
 */
export interface ToolProgress {
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
}

/**
 * Checks what a body passed to `exec.progress`. Throws a `TypeError` naming the problem: a bad
 * report is the tool author's bug, and it fails the same whether anybody observes progress or not.
 * Allocates nothing.
 */
export function assertProgress(update: unknown): asserts update is ToolProgress {
  if (typeof update !== 'object' || update === null) {
    throw new TypeError(`exec.progress() takes { message?, progress?, total? }, got ${update === null ? 'null' : typeof update}`);
  }
  const { message, progress, total } = update as Record<string, unknown>;
  if (message !== undefined && typeof message !== 'string') throw new TypeError(`exec.progress(): message must be a string, got ${typeof message}`);
  if (progress !== undefined && !(typeof progress === 'number' && Number.isFinite(progress))) {
    throw new TypeError(`exec.progress(): progress must be a finite number, got ${String(progress)}`);
  }
  if (total !== undefined && !(typeof total === 'number' && Number.isFinite(total) && total > 0)) {
    throw new TypeError(`exec.progress(): total must be a positive finite number, got ${String(total)}`);
  }
}

/** A frozen copy of a checked report's known fields: the body may reuse or change its own object. */
export function copyProgress(update: ToolProgress): ToolProgress {
  const { message, progress, total } = update;
  const copy: { message?: string; progress?: number; total?: number } = {};
  if (message !== undefined) copy.message = message;
  if (progress !== undefined) copy.progress = progress;
  if (total !== undefined) copy.total = total;
  return Object.freeze(copy);
}
