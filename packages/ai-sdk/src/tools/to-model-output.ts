import type { ContentPart, ToolResult } from '@weir/core';

/** The AI SDK's `ToolResultOutput` (AI SDK 6 and 7), the variants weir produces. */
export type AiSdkToolOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'error-text'; readonly value: string }
  | { readonly type: 'content'; readonly value: AiSdkContentPart[] };

export type AiSdkContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image-data'; readonly data: string; readonly mediaType: string }
  | { readonly type: 'image-url'; readonly url: string };

/**
 * What the AI SDK model reads for a weir result: its rendered text, or for content with images
 * (`parts`), the parts in order as `content` (text, `image-data`, `image-url`; a resource as its
 * text). A failure normally never gets here (execute throws it, see `aiSdkTools`); if one does, it
 * is `error-text`.
 */
export function toModelOutput(result: ToolResult): AiSdkToolOutput {
  if (!result.ok) return { type: 'error-text', value: result.content };
  if (result.parts === undefined) return { type: 'text', value: result.content };
  return { type: 'content', value: result.parts.map(toContentPart) };
}

function toContentPart(part: ContentPart): AiSdkContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return 'data' in part ? { type: 'image-data', data: part.data, mediaType: part.mediaType } : { type: 'image-url', url: part.url };
    case 'resource':
      return { type: 'text', text: part.text ?? `[resource: ${part.name ?? part.uri} <${part.uri}>]` };
  }
}
