import { fileURLToPath } from 'node:url';
import { parseFlags } from './parse-flags.js';

/** What the steps that work in a folder are told by their command line. */
export interface WorkspaceFlags {
  /** The lines to send: the arguments, else the step's own. */
  readonly lines: readonly string[];
  /** `--workspace <folder>`, else the example's `./workspace`. */
  readonly root: string;
}

/**
 * Reads `[--workspace <folder>] [--debug] [--] [lines...]` strictly (see `parseFlags`). With
 * `--help` it prints the usage and returns `undefined`: the step has nothing more to do.
 */
export function workspaceFlags(usage: string, defaultLines: readonly string[]): WorkspaceFlags | undefined {
  const { values, positionals } = parseFlags(usage, { workspace: { type: 'string' } });
  if (values.help) {
    console.log(`Usage: ${usage}`);
    return undefined;
  }
  return {
    lines: positionals.length > 0 ? positionals : defaultLines,
    root: values.workspace ?? fileURLToPath(new URL('../workspace/', import.meta.url)),
  };
}
