type Json = Record<string, unknown>;
type Block = Json & { type: string };

/**
 * Checks a request body as the Messages API would before answering, and returns each problem in
 * the API's words (an empty list: the request would be accepted):
 * - roles alternate, starting with `user`; no empty content;
 * - with `thinking` on, the last assistant message of a tool loop in progress starts with a
 *   `thinking` or `redacted_thinking` block, and every thinking block comes back exactly as the
 *   server sent it (`issued`: signature or data, in the same order);
 * - every `tool_use` is answered by a `tool_result` of the same id at the start of the next user
 *   message, each exactly once, and no `tool_result` answers nothing;
 * - at most four `cache_control` breakpoints.
 */
export function validateMessagesRequest(body: Json, issued: ReadonlyMap<string, readonly Json[]>): string[] {
  const problems: string[] = [];
  const messages = (body['messages'] ?? []) as { role: string; content: Block[] }[];
  const thinking = (body['thinking'] as Json | undefined)?.['type'] === 'enabled';
  messages.forEach((message, index) => {
    if (message.role !== (index % 2 === 0 ? 'user' : 'assistant')) problems.push(`messages.${index}: roles must alternate, starting with user`);
    if (!Array.isArray(message.content) || message.content.length === 0) problems.push(`messages.${index}: content must be a non-empty list`);
  });
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    const uses = message.content.filter((block) => block.type === 'tool_use').map((block) => block['id'] as string);
    const thoughts = message.content.filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking');
    // What the server sent for the answer that held these tool calls, compared block by block.
    const key = uses[0] ?? '';
    const sent = issued.get(key);
    if (sent !== undefined && JSON.stringify(thoughts) !== JSON.stringify(sent)) problems.push(`messages.${index}: thinking blocks must be passed back unmodified`);
    const firstUse = message.content.findIndex((block) => block.type === 'tool_use');
    const lastThought = message.content.findLastIndex((block) => block.type === 'thinking' || block.type === 'redacted_thinking');
    if (firstUse >= 0 && lastThought > firstUse) problems.push(`messages.${index}: thinking must come before tool_use`);
    const next = messages[index + 1];
    if (uses.length > 0) {
      const results = (next?.content ?? []).filter((block) => block.type === 'tool_result').map((block) => block['tool_use_id'] as string);
      const leading = (next?.content ?? []).slice(0, results.length).every((block) => block.type === 'tool_result');
      if (JSON.stringify([...results].sort()) !== JSON.stringify([...uses].sort()) || !leading) problems.push(`messages.${index + 1}: tool_use ids were found without tool_result blocks immediately after`);
      const inLoop = index === messages.length - 2;
      if (thinking && inLoop && !(message.content[0]?.type === 'thinking' || message.content[0]?.type === 'redacted_thinking')) {
        problems.push(`messages.${index}.content.0: expected thinking or redacted_thinking, found ${message.content[0]?.type}`);
      }
      for (const block of thoughts) if (block.type === 'thinking' && (typeof block['signature'] !== 'string' || block['signature'] === '')) problems.push(`messages.${index}: thinking block without signature`);
    }
  }
  const breakpoints = countBreakpoints(body);
  if (breakpoints > 4) problems.push(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  return problems;
}

function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countBreakpoints(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 'cache_control' in value ? 1 : 0;
  for (const [key, item] of Object.entries(value)) if (key !== 'cache_control') count += countBreakpoints(item);
  return count;
}

/** Where the request's last `cache_control` breakpoint in the messages is: `[message, block]`. */
export function lastMarked(body: Json): readonly [number, number] | undefined {
  const messages = (body['messages'] ?? []) as { content: Block[] }[];
  let cut: [number, number] | undefined;
  messages.forEach((message, i) => message.content.forEach((block, j) => {
    if ('cache_control' in block) cut = [i, j];
  }));
  return cut;
}

/**
 * The request's prefix through `cut` (tools, system, messages up to that block), serialised as the
 * cache sees it, the `cache_control` markers themselves left out.
 */
export function prefixThrough(body: Json, cut: readonly [number, number]): string {
  const messages = (body['messages'] ?? []) as { role: string; content: Block[] }[];
  const [mi, bi] = cut;
  const kept = messages.slice(0, mi + 1).map((message, i) => ({ role: message.role, content: i === mi ? message.content.slice(0, bi + 1) : message.content }));
  return JSON.stringify({ tools: body['tools'], system: body['system'], messages: kept }, (key, item: unknown) => (key === 'cache_control' ? undefined : item));
}
