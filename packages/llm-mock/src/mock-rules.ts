/** A tool call the rules ask for: a file tool with its path, or any tool by name with no arguments. */
export interface MockCommand {
  readonly tool: string;
  /** Set for `read_file` and `list_dir`; absent for "run tool X". */
  readonly path?: string;
}

// "run tool X" / "运行工具 X" calls any tool X of the request's list with `{}`.
const RUN_TOOL = [/^\s*run\s+tool\s+([A-Za-z0-9_-]{1,64})\s*$/i, /^\s*运行工具\s*[:：]?\s*([A-Za-z0-9_-]{1,64})\s*$/];

/** The language a reply is written in: the user's. */
export type MockLanguage = 'en' | 'zh';

const RULES: readonly { readonly pattern: RegExp; readonly tool: MockCommand['tool'] }[] = [
  { pattern: /^\s*read\s+file\s+(.+?)\s*$/is, tool: 'read_file' },
  { pattern: /^\s*读文件\s*[:：]?\s*(.+?)\s*$/s, tool: 'read_file' },
  { pattern: /^\s*list\s+dir(?:ectory)?(?:\s+(.+?))?\s*$/is, tool: 'list_dir' },
  { pattern: /^\s*列目录\s*[:：]?\s*(.*?)\s*$/s, tool: 'list_dir' },
];

// A path the user put in quotes or backticks means the path inside them.
const QUOTED = /^(["'`“‘「])(.*)(["'`”’」])$/s;

/** The command in the user's text, or `undefined` when the text asks for no tool. */
export function parseCommand(text: string): MockCommand | undefined {
  for (const pattern of RUN_TOOL) {
    const match = pattern.exec(text);
    if (match !== null) return { tool: match[1]! };
  }
  for (const { pattern, tool } of RULES) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const raw = (match[1] ?? '').trim();
    const path = raw.replace(QUOTED, '$2');
    // "list dir" alone lists the workspace root; "read file" alone is not a command.
    if (path === '') return tool === 'list_dir' ? { tool, path: '.' } : undefined;
    return { tool, path };
  }
  return undefined;
}

/** Chinese when the text has a CJK ideograph, English otherwise. */
export function languageOf(text: string): MockLanguage {
  return /[\u3400-\u9fff]/.test(text) ? 'zh' : 'en';
}

/** The first `count` characters (code points, so a surrogate pair is never cut). */
export function firstCharacters(text: string, count: number): string {
  let end = 0;
  for (let seen = 0; seen < count && end < text.length; seen += 1) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * The start of `text` for a reply (trailing white space dropped): all of it when it has at most `count` characters, else the words
 * that fit (a word longer than that is cut), followed by "…" to say that more follows.
 */
export function quoteStart(text: string, count: number): string {
  // A file's final newline is not part of what it says.
  const whole = text.trimEnd();
  const start = firstCharacters(whole, count);
  if (start.length === whole.length) return whole;
  // Back to the last space, unless that loses more than half: a run without spaces is cut as it is.
  const space = start.search(/\s\S*$/);
  const cut = space > start.length / 2 ? start.slice(0, space) : start;
  return `${cut.trimEnd()}…`;
}

/** How many characters of a tool result the reply quotes at most. */
export const QUOTED_RESULT_CHARS = 120;

/** The reply's wording, per language. */
export const REPLIES: Readonly<Record<MockLanguage, {
  readonly toolReturned: (tool: string, start: string) => string;
  readonly notAvailable: (tool: string) => string;
  readonly plain: (text: string) => string;
  readonly seeImages: (images: readonly string[]) => string;
}>> = {
  en: {
    toolReturned: (tool, start) => `Tool ${tool} returned: ${start}`,
    notAvailable: (tool) => `The tool ${tool} is not available here, so I cannot do that.`,
    plain: (text) => `You said: "${text}". I can read a file ("read file <path>") or list a folder ("list dir <path>").`,
    seeImages: (images) => `I see ${images.length} image${images.length === 1 ? '' : 's'} (${images.join('; ')}).`,
  },
  zh: {
    toolReturned: (tool, start) => `工具 ${tool} 返回了：${start}`,
    notAvailable: (tool) => `工具 ${tool} 在这里不可用，我无法这样做。`,
    plain: (text) => `你说：“${text}”。我可以读文件（“读文件 <路径>”）或列目录（“列目录 <路径>”）。`,
    seeImages: (images) => `我看到 ${images.length} 张图片（${images.join('；')}）。`,
  },
};
