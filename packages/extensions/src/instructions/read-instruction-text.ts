import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import type { LoadProblem } from '../load-problem.js';

/** One instruction file read from disk. */
export interface ReadInstruction {
  readonly path: string;
  readonly real: string;
  readonly text: string;
  readonly digest: string;
}

/**
 * Reads `path` if it exists: `undefined` when it does not, a problem (and `undefined`) when it
 * exists but cannot be read. Line endings become `\n`.
 */
export async function readInstructionText(path: string, problems: LoadProblem[]): Promise<ReadInstruction | undefined> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return undefined;
  }
  try {
    const text = (await readFile(real, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    return { path, real, text, digest: createHash('sha256').update(text).digest('hex') };
  } catch (error) {
    problems.push({ file: path, reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return undefined;
  }
}
