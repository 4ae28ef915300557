/**
 * An error as one readable line: its message with line breaks folded and doubled periods removed.
 * weir's errors already carry what their cause said in their message; causes and stacks are left
 * to `--debug`. An error with an empty message falls back to its cause's.
 */
export function oneLineError(error: unknown): string {
  let current: unknown = error;
  let text = '';
  for (let depth = 0; text === '' && current !== undefined && current !== null && depth < 5; depth += 1) {
    text = (current instanceof Error ? current.message : String(current)).replace(/\s*\n\s*/g, '; ').trim();
    current = current instanceof Error ? current.cause : undefined;
  }
  if (text === '') return 'unknown error.';
  const line = /[.!?)]$/.test(text) ? text : `${text}.`;
  return line.replace(/\.{2,}(?=\s|$)/g, '.');
}

/** The stack of an error and of each of its causes, for `--debug`. */
export function errorStacks(error: unknown): string {
  const lines: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    lines.push(`${depth === 0 ? '' : 'caused by: '}${current instanceof Error ? (current.stack ?? current.message) : String(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}
