import { ToolCallError, type ContentPart } from '@weir/core';

/**
 * What the model reads for an AI SDK tool that has `toModelOutput`, as weir content: `text` as it
 * is, `json` as pretty JSON, `content` as parts (text, images inline or by URL, other files as
 * resources). An `error-text`, `error-json` or `execution-denied` output is the call's failure:
 * it throws `ToolCallError` (`EXECUTION_FAILED`, `DENIED`) so weir reports it as one.
 */
export function toWeirContent(output: unknown, toolName: string): string | ContentPart[] {
  const value = output as { type?: unknown; value?: unknown; reason?: unknown } | null;
  switch (value?.type) {
    case 'text':
      return String(value.value);
    case 'json':
      return JSON.stringify(value.value, null, 2) ?? 'null';
    case 'error-text':
      throw new ToolCallError('EXECUTION_FAILED', String(value.value));
    case 'error-json':
      throw new ToolCallError('EXECUTION_FAILED', JSON.stringify(value.value));
    case 'execution-denied':
      throw new ToolCallError('DENIED', typeof value.reason === 'string' ? value.reason : `${toolName} refused to run this call.`);
    case 'content':
      if (Array.isArray(value.value)) return value.value.map(toPart);
  }
  throw new ToolCallError('INVALID_OUTPUT', `${toolName}'s toModelOutput gave ${JSON.stringify(value?.type)}, not an AI SDK tool output (text, json, content, error-text, error-json).`);
}

function toPart(part: Record<string, any>): ContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text) };
    case 'image-data':
    case 'media':
    case 'file-data':
      return fileData(String(part.data), String(part.mediaType), part.filename);
    case 'image-url':
      return { type: 'image', url: String(part.url) };
    case 'file-url':
      return { type: 'resource', uri: String(part.url), ...(typeof part.mediaType === 'string' ? { mediaType: part.mediaType } : {}) };
    // AI SDK 7: one `file` part whose data is inline bytes, a URL, a reference or text.
    case 'file': {
      const data = part.data as Record<string, any> | undefined;
      if (data?.type === 'data') return fileData(typeof data.data === 'string' ? data.data : Buffer.from(data.data).toString('base64'), String(part.mediaType), part.filename);
      if (data?.type === 'url') return String(part.mediaType).startsWith('image/') ? { type: 'image', url: String(data.url), mediaType: part.mediaType } : { type: 'resource', uri: String(data.url), mediaType: part.mediaType };
      if (data?.type === 'text') return { type: 'text', text: String(data.text) };
      return { type: 'text', text: `[file: ${String(part.filename ?? part.mediaType)}, not shown]` };
    }
    default:
      return { type: 'text', text: `[${String(part.type)} part, not shown]` };
  }
}

function fileData(data: string, mediaType: string, filename: unknown): ContentPart {
  if (mediaType.startsWith('image/')) return { type: 'image', data, mediaType };
  const name = typeof filename === 'string' ? filename : 'file';
  return { type: 'resource', uri: `data:${mediaType};base64,${data}`, name, mediaType };
}
