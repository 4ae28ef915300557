/** ANSI styles, or none: what a line looks like on this output. */
export interface TerminalStyle {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly code: (text: string) => string;
  readonly ok: (text: string) => string;
  readonly bad: (text: string) => string;
  readonly heading: (text: string) => string;
  /** Whether the output is a terminal (lines may be redrawn). */
  readonly live: boolean;
}

const plain = (text: string) => text;
const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * Styles for a stream: colours and redrawn lines only on a terminal, and never with `NO_COLOR` set
 * (no-color.org) or `TERM=dumb`; a pipe or a file gets plain text.
 */
export function terminalStyle(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): TerminalStyle {
  const live = stream.isTTY === true && env.TERM !== 'dumb';
  const color = live && (env.NO_COLOR === undefined || env.NO_COLOR === '');
  if (!color) return { bold: plain, dim: plain, code: plain, ok: plain, bad: plain, heading: plain, live };
  return { bold: wrap(1, 22), dim: wrap(2, 22), code: wrap(36, 39), ok: wrap(32, 39), bad: wrap(31, 39), heading: (text) => `\u001b[1;4m${text}\u001b[22;24m`, live };
}
