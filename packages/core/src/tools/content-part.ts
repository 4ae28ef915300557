/** Plain text. A string anywhere content is asked for is one text part. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image: inline bytes (base64 `data` with its `mediaType`), or a URL. */
export type ImagePart =
  | { readonly type: 'image'; readonly data: string; readonly mediaType: string }
  | { readonly type: 'image'; readonly url: string; readonly mediaType?: string };

/** A reference to a resource (a file, an MCP resource), with its text when the tool has it. */
export interface ResourcePart {
  readonly type: 'resource';
  readonly uri: string;
  readonly name?: string;
  readonly mediaType?: string;
  readonly text?: string;
}

/** One piece of model-visible content. */
export type ContentPart = TextPart | ImagePart | ResourcePart;

/** What the model reads: a string (one text part), or a list of parts. */
export type Content = string | readonly ContentPart[];

/**
 * The text a text-only reader gets from parts: text parts as they are, a resource as its text (or
 * `[resource: name <uri>]` without one), joined by a blank line. Images add nothing: whoever shows
 * the text in place of an image says so in its own words (see `describeImage`).
 */
export function textOfParts(parts: readonly ContentPart[]): string {
  let text = '';
  for (const part of parts) {
    const piece = part.type === 'text' ? part.text : part.type === 'resource' ? (part.text ?? `[resource: ${part.name ?? part.uri} <${part.uri}>]`) : undefined;
    if (piece === undefined) continue;
    text = text === '' ? piece : `${text}\n\n${piece}`;
  }
  return text;
}

/** True when a part is more than text: content with one needs `parts` to be shown whole. */
export function hasRichParts(parts: readonly ContentPart[]): boolean {
  return parts.some((part) => part.type !== 'text');
}

/** The size of an inline image's bytes, from its base64 length; 0 for a URL. */
export function imageBytes(part: ImagePart): number {
  if (!('data' in part)) return 0;
  const { data } = part;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** A one-line stand-in for an image a reader cannot see: `12 KB image/png`. */
export function describeImage(part: ImagePart): string {
  if (!('data' in part)) return `${part.mediaType ?? 'image'} at ${part.url}`;
  return `${formatBytes(imageBytes(part))} ${part.mediaType}`;
}

/** A size as a reader says it: `70 B`, `12 KB`, `5.0 MB`. */
export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why `value` is not a list of content parts, or `undefined` when it is. Never throws. Unknown
 * part types are refused (a reader would not know what to do with them).
 */
export function checkParts(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'content parts must be an array';
  for (let index = 0; index < value.length; index++) {
    const part = value[index] as Record<string, unknown> | null;
    const where = `part ${index}`;
    if (typeof part !== 'object' || part === null) return `${where} must be an object`;
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') return `${where}: a text part needs "text" (a string)`;
        break;
      case 'image':
        if (typeof part.data === 'string') {
          if (typeof part.mediaType !== 'string' || !part.mediaType.startsWith('image/')) return `${where}: an image with data needs "mediaType" (image/...)`;
          if (part.data.length % 4 !== 0 || !BASE64.test(part.data)) return `${where}: image data must be base64`;
        } else if (typeof part.url !== 'string' || part.url === '') {
          return `${where}: an image needs "data" (base64) with "mediaType", or a "url"`;
        }
        break;
      case 'resource':
        if (typeof part.uri !== 'string' || part.uri === '') return `${where}: a resource part needs "uri"`;
        for (const key of ['name', 'mediaType', 'text'] as const) {
          if (part[key] !== undefined && typeof part[key] !== 'string') return `${where}: "${key}" must be a string`;
        }
        break;
      default:
        return `${where}: unknown part type ${JSON.stringify(part.type)} (text, image or resource)`;
    }
  }
  return undefined;
}
