import { isRecord } from './is-record.js';

/** What a tolerant read of an error body found. Every field may be absent. */
export interface ParsedErrorBody {
  readonly message?: string;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string;
  /** Set when the body was not a JSON error: the start of the text (an HTML page, say), whitespace collapsed. */
  readonly excerpt?: string;
}

/** Longest excerpt of a non-JSON body kept in an error. */
export const MAX_EXCERPT_CHARS = 500;

/**
 * Reads an error body whatever its shape: OpenAI's `{ error: { message, type, code, param } }`,
 * `{ error: "text" }`, `{ message }`, FastAPI's `{ detail }`, an array of those (Google-style), an
 * HTML page, plain text or nothing. Leading blank lines are skipped (DeepSeek sends them to keep a
 * connection open). Never throws: a body that is not JSON becomes an excerpt.
 */
export function parseErrorBody(text: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const found = fromJson(JSON.parse(trimmed) as unknown);
      if (found !== undefined) return found;
    } catch {
      // Not JSON after all (a truncated body, say): fall through to the excerpt.
    }
  }
  return { excerpt: excerpt(trimmed) };
}

/** The provider error inside a parsed JSON value, or `undefined` when there is none. Never throws. */
export function fromJson(value: unknown): ParsedErrorBody | undefined {
  const root = Array.isArray(value) ? (value[0] as unknown) : value;
  if (!isRecord(root)) return undefined;
  const inner = root['error'] ?? root['detail'];
  if (typeof inner === 'string') return { message: inner };
  const source = isRecord(inner) ? inner : root;
  const message = text(source['message']) ?? (Array.isArray(inner) ? text(JSON.stringify(inner)) : undefined);
  const found: ParsedErrorBody = {
    ...(message !== undefined && { message }),
    ...(text(source['type']) !== undefined && { type: text(source['type']) }),
    ...(text(source['code']) !== undefined && { code: text(source['code']) }),
    ...(text(source['param']) !== undefined && { param: text(source['param']) }),
  };
  return Object.keys(found).length === 0 ? undefined : found;
}

function excerpt(body: string): string {
  const collapsed = body.replace(/\s+/g, ' ');
  return collapsed.length <= MAX_EXCERPT_CHARS ? collapsed : `${collapsed.slice(0, MAX_EXCERPT_CHARS - 1)}…`;
}

/** Strings as they are; numbers (some servers send `code: 429`) as their decimal text. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
