/** A markdown file split into its YAML front matter and its body. */
export interface FrontMatterFile {
  /** The front matter's keys; `{}` when the file has none. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The markdown after the front matter, as written (line endings normalised to `\n`). */
  readonly body: string;
  /** Set when the front matter is not strict YAML and was read line by line (`key: value`) instead. */
  readonly lenient?: string;
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Splits `text` at its front matter (a `---` line first, up to the next `---` line). Strict YAML
 * first; published agent and command files often hold plain values YAML refuses (`description:
 * Use this when: ...`, `<example>` blocks), which Claude Code reads anyway, so on a YAML error
 * each `key: value` line is taken as it stands, indented lines continuing the value before, and
 * `lenient` says why. Rejects with an `Error` (one line) only when the front matter is not a mapping
 * or is never closed. The YAML parser loads on the first file that has front matter (cold start).
 */
export async function parseFrontMatter(text: string): Promise<FrontMatterFile> {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!OPENING.test(normalised)) return { data: {}, body: normalised };
  const rest = normalised.replace(OPENING, '');
  const close = CLOSING.exec(rest);
  if (close === null) throw new Error('the front matter opens with --- but is never closed by another --- line');
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\n/, '');
  const { parse } = await import('yaml');
  try {
    const data: unknown = parse(yaml) ?? {};
    if (typeof data !== 'object' || Array.isArray(data)) throw new Error('the front matter must be a mapping of keys to values');
    return { data: data as Record<string, unknown>, body };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('the front matter')) throw error;
    const why = (error as Error).message.split('\n')[0] ?? 'not YAML';
    return { data: readLines(yaml), body, lenient: `the front matter is not strict YAML (${why}); read line by line` };
  }
}

/** `key: value` lines; indented or key-less lines continue the last value. */
function readLines(yaml: string): Record<string, unknown> {
  const data: Record<string, string> = {};
  let last: string | undefined;
  for (const line of yaml.split('\n')) {
    const match = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (match !== null) {
      last = match[1]!;
      data[last] = unquote((match[2] ?? '').trim());
    } else if (last !== undefined && line.trim() !== '') {
      data[last] = `${data[last]}${data[last] === '' ? '' : '\n'}${line.trim()}`;
    }
  }
  return data;
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted === null ? value : quoted[2]!;
}
