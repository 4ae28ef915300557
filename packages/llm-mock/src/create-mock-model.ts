import { imageBytes, type ContentPart, type LanguageModel, type Message, type ModelRequest, type ModelResponse, type ToolMessage } from '@weir/core';
import { languageOf, parseCommand, QUOTED_RESULT_CHARS, quoteStart, REPLIES } from './mock-rules.js';
import { streamResponse } from './stream-response.js';

/**
 * A deterministic model that follows rules, in English and Chinese, for demos without an API key:
 * - "read file X" / "读文件 X" calls `read_file { path: X }`;
 * - "list dir X" / "列目录 X" calls `list_dir { path: X }`;
 * - "run tool X" / "运行工具 X" calls any tool `X` with `{}` (for demos of tools of your own);
 * - after tool results, it answers "Tool read_file returned: " / "工具 read_file 返回了：" followed by
 *   the start of each result, up to 120 characters cut at a word and marked "…" when more follows
 *   (an error result's text included);
 * - images it receives (in a tool result or a user message) are described: "I see 1 image
 *   (image/png, 70 bytes)." / "我看到 1 张图片（image/png, 70 bytes）。";
 * - anything else gets a plain reply that quotes the user.
 * It calls only tools in the request's tool list, and says so when one is missing. Each answer
 * looks only at the end of the history, so a step costs the same however long the history is.
 * `complete` and `stream` reject with the signal's reason once it aborts.
 */
export function createMockModel(): LanguageModel {
  return {
    id: 'mock:rules',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      request.signal?.throwIfAborted();
      return answer(request);
    },
    stream(request: ModelRequest) {
      return streamResponse(answer(request), request.signal);
    },
  };
}

function answer(request: ModelRequest): ModelResponse {
  const { messages } = request;
  const language = languageOf(lastUserText(messages));
  const replies = REPLIES[language];

  const results = trailingToolMessages(messages);
  if (results.length > 0) {
    const lines = results.map((result) => {
      const line = replies.toolReturned(result.toolName, quoteStart(result.content, QUOTED_RESULT_CHARS));
      const images = imagesOf(result.parts);
      return images.length === 0 ? line : `${line}\n${replies.seeImages(images)}`;
    });
    return { text: lines.join('\n'), toolCalls: [], finishReason: 'stop' };
  }

  const last = messages[messages.length - 1];
  const userText = last?.role === 'user' ? last.content : '';
  const userImages = last?.role === 'user' ? imagesOf(last.parts) : [];
  if (userImages.length > 0) return { text: replies.seeImages(userImages), toolCalls: [], finishReason: 'stop' };
  const command = parseCommand(userText);
  if (command === undefined) return { text: replies.plain(userText), toolCalls: [], finishReason: 'stop' };
  if (!request.tools.some((tool) => tool.name === command.tool)) {
    return { text: replies.notAvailable(command.tool), toolCalls: [], finishReason: 'stop' };
  }
  // The history's length makes the id unique within a conversation and the same on every run.
  const call = { id: `mock_call_${messages.length}`, name: command.tool, arguments: JSON.stringify(command.path === undefined ? {} : { path: command.path }) };
  return { text: '', toolCalls: [call], finishReason: 'tool_calls' };
}

/** The images among a message's parts, as `image/png, 70 bytes`. */
function imagesOf(parts: readonly ContentPart[] | undefined): string[] {
  if (parts === undefined) return [];
  return parts.flatMap((part) => (part.type !== 'image' ? [] : 'data' in part ? [`${part.mediaType}, ${imageBytes(part)} bytes`] : [`${part.mediaType ?? 'image'} at ${part.url}`]));
}

/** The tool messages after the last assistant message, oldest first. */
function trailingToolMessages(messages: readonly Message[]): ToolMessage[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role === 'tool') start -= 1;
  return messages.slice(start) as ToolMessage[];
}

function lastUserText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'user') return message.content;
  }
  return '';
}
