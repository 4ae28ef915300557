/** What a path held at one moment: a regular file's bytes (by hash) and permission bits, or nothing. */
export type FileState = { readonly kind: 'file'; readonly hash: string; readonly mode: number } | { readonly kind: 'absent' };

export const ABSENT: FileState = Object.freeze({ kind: 'absent' });

/** True when two states are the same bytes and mode, or both absent. */
export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind;
  return a.hash === b.hash && a.mode === b.mode;
}

/** "absent", or "12ab34cd 644": for messages. */
export function describeState(state: FileState): string {
  return state.kind === 'absent' ? 'absent' : `${state.hash.slice(0, 8)} ${state.mode.toString(8)}`;
}

/** Checks a parsed value is a `FileState`. Never throws. */
export function isFileState(value: unknown): value is FileState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  if (state.kind === 'absent') return true;
  return state.kind === 'file' && typeof state.hash === 'string' && /^[0-9a-f]{64}$/.test(state.hash) && Number.isInteger(state.mode);
}
