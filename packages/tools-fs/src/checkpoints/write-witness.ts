import type { FileState } from './file-state.js';

/**
 * The key under which the checkpoints plugin hands a call's body a witness of its writes: the
 * state each write left (hash of the bytes written, mode), so the state after the call is taken
 * from what the tool wrote rather than read back and hashed again.
 */
const WITNESS = Symbol('weir.tools-fs.write-witness');

/** Receives the state a write left a path in. */
export type WriteWitness = (relativePath: string, state: FileState) => void;

/** `exec` with `witness` added (for the body the checkpoints plugin dispatches). */
export function withWriteWitness<T extends object>(exec: T, witness: WriteWitness): T {
  return { ...exec, [WITNESS]: witness };
}

/** Tells the call's witness, when there is one, that `relativePath` now holds the bytes of SHA-256 `hash` with `mode`. Never throws. */
export function witnessWrite(exec: object, relativePath: string, hash: string, mode: number): void {
  const witness = (exec as { [WITNESS]?: WriteWitness })[WITNESS];
  if (witness !== undefined) witness(relativePath, { kind: 'file', hash, mode });
}
