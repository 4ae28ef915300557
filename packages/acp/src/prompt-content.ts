import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Content, ContentPart } from '@weir/core';

/**
 * A `session/prompt`'s blocks as weir content: text as text, an image as an image, an embedded
 * text resource (a file the editor attached, unsaved edits included) as a resource with its text,
 * a link as a resource the model can ask a tool to read. Audio and binary blobs are named in the
 * text, since no weir model takes them. A prompt of text alone stays a string.
 */
export function promptContent(blocks: readonly ContentBlock[]): Content {
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push(block.data !== '' ? { type: 'image', data: block.data, mediaType: block.mimeType } : { type: 'image', url: block.uri ?? '', mediaType: block.mimeType });
        break;
      case 'resource_link':
        parts.push({ type: 'resource', uri: block.uri, name: block.name, ...(block.mimeType ? { mediaType: block.mimeType } : {}) });
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) parts.push({ type: 'resource', uri: resource.uri, text: resource.text, ...(resource.mimeType ? { mediaType: resource.mimeType } : {}) });
        else parts.push({ type: 'text', text: `[a binary resource ${resource.uri} was attached; weir cannot read it here]` });
        break;
      }
      case 'audio':
        parts.push({ type: 'text', text: '[an audio clip was attached; weir cannot hear it]' });
        break;
    }
  }
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as { text: string }).text).join('\n');
  return parts;
}
