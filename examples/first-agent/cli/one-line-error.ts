/**
 * An error as one readable line: its message with line breaks folded and doubled periods removed.
 * The messages of weir's errors already carry what their cause said; the causes and the stack are
 * left to `--debug`. An error with an empty message falls back to its cause's.
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
