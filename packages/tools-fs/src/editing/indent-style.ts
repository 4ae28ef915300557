/**
 * How a text indents, and new_string re-indented into a file's style: the step edit_file takes after
 * a match that ignored indentation, so that a model writing four spaces into a tab-indented Python
 * file writes tabs (Python refuses a tab and four spaces where a tab was), and one writing tabs into a
 * two-space file writes two spaces per level.
 */

/** One tab per level, or `size` spaces per level. */
export type IndentStyle = { readonly kind: 'tab' } | { readonly kind: 'space'; readonly size: number };

/** Columns a tab counts for when depths written with tabs and with spaces are compared. */
const TAB_COLUMNS = 4;
/** A style is told only when this share of the indented lines agrees on tabs or on spaces. */
const AGREEMENT = 0.8;

/** The leading spaces and tabs of a line. Pure. */
export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * The indentation style of `lines` (blank lines ignored), or `undefined` when it cannot be told:
 * nothing is indented, tabs and spaces are mixed, or the space-indented lines agree on no step. For
 * spaces the step is the most common change of depth between consecutive lines (as editors detect
 * it), so one odd line (a JSDoc `*` aligned one column in) does not decide. Pure.
 */
export function detectIndentStyle(lines: readonly string[]): IndentStyle | undefined {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = leadingWhitespace(line);
    if (indent.startsWith('\t')) tabs += 1;
    else if (indent.startsWith(' ')) spaces += 1;
    if (!indent.includes('\t')) {
      if (previous !== undefined && indent.length !== previous) {
        const step = Math.abs(indent.length - previous);
        steps.set(step, (steps.get(step) ?? 0) + 1);
      }
      previous = indent.length;
    } else {
      previous = undefined;
    }
  }
  const indented = tabs + spaces;
  if (indented === 0) return undefined;
  if (tabs / indented >= AGREEMENT) return { kind: 'tab' };
  if (spaces / indented < AGREEMENT) return undefined;
  let size = 0;
  let seen = 0;
  for (const [step, count] of steps) {
    // Steps of one column are alignment (JSDoc, continuation lines), not a level, unless they are all there is.
    const weight = step === 1 ? count / 10 : count;
    if (step <= 8 && (weight > seen || (weight === seen && step < size))) {
      size = step;
      seen = weight;
    }
  }
  return size === 0 ? undefined : { kind: 'space', size };
}

/**
 * `newString`, written by a model whose `oldString` matched `fileLines` only when indentation was
 * ignored, in the file's style: each line keeps its depth relative to the first non-blank line of
 * `oldString`, counted in the model's levels, and gets the file's indentation of that line plus as
 * many of the file's levels. Returns `undefined` when the styles cannot be told (the file's or the
 * model's is unknown, or the model's depths are not whole levels): the caller then keeps the
 * model's own relative indentation. Pure.
 */
export function reindentToFile(
  newString: string,
  oldLines: readonly string[],
  fileLines: readonly string[],
  fileStyle: IndentStyle | undefined,
): string | undefined {
  const at = oldLines.findIndex((line) => line.trim() !== '');
  if (at === -1) return newString;
  const modelBase = columns(leadingWhitespace(oldLines[at]!));
  const fileBase = leadingWhitespace(fileLines[at]!);
  const newLines = newString.split('\n');
  const depths = [...oldLines, ...newLines].filter((line) => line.trim() !== '').map((line) => columns(leadingWhitespace(line)) - modelBase);
  const modelLevel = levelColumns([...oldLines, ...newLines], depths);
  if (modelLevel === undefined || fileStyle === undefined) return undefined;
  const unit = fileStyle.kind === 'tab' ? '\t' : ' '.repeat(fileStyle.size);
  const fileBaseLevels = Math.floor(columns(fileBase) / (fileStyle.kind === 'tab' ? TAB_COLUMNS : fileStyle.size));
  return newLines
    .map((line) => {
      if (line.trim() === '') return line;
      const indent = leadingWhitespace(line);
      const relative = columns(indent) - modelBase;
      const levels = modelLevel === 0 ? 0 : Math.floor(relative / modelLevel);
      const rest = relative - levels * modelLevel;
      const body = line.slice(indent.length);
      // Deeper or level with the first line: the file's own indentation of it, then the added levels.
      if (levels >= 0) return fileBase + unit.repeat(levels) + ' '.repeat(rest) + body;
      return unit.repeat(Math.max(0, fileBaseLevels + levels)) + ' '.repeat(rest) + body;
    })
    .join('\n');
}

/**
 * Columns per level of the model's lines: four for tabs, the common step of the depths for spaces
 * (0 when every line sits at one depth). `undefined` when it cannot be told: tabs and spaces mixed,
 * or depths with no common step of 2 or more. Pure.
 */
function levelColumns(lines: readonly string[], depths: readonly number[]): number | undefined {
  const steps = depths.filter((depth) => depth !== 0).map(Math.abs);
  if (steps.length === 0) return 0;
  const indents = lines.filter((line) => line.trim() !== '').map(leadingWhitespace).filter((indent) => indent !== '');
  const usesTabs = indents.some((indent) => indent.includes('\t'));
  const usesSpaces = indents.some((indent) => indent.includes(' '));
  if (usesTabs && usesSpaces) return undefined;
  if (usesTabs) return TAB_COLUMNS;
  const step = steps.reduce(greatestCommonDivisor);
  return step >= 2 ? step : undefined;
}

function columns(indent: string): number {
  let width = 0;
  for (const character of indent) width = character === '\t' ? width - (width % TAB_COLUMNS) + TAB_COLUMNS : width + 1;
  return width;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
