import type { ModelRequest } from '@weir/core';
import { toResponsesInput } from './to-responses-input.js';

export interface ResponsesRequestOptions {
  readonly model: string;
  readonly extraBody: Readonly<Record<string, unknown>> | undefined;
}

/** What a stateless request asks to get back, so that reasoning survives between turns. */
const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/**
 * The Responses API request body of one call: streamed (`stream: true`), stateless (`store: false`,
 * with `include: ['reasoning.encrypted_content']`, so each reasoning item comes back encrypted and
 * goes back with the next request, and nothing is kept on OpenAI's side), the registry's tools as
 * `{ type: 'function', name, description, parameters, strict: false }` (the API makes a function
 * strict unless told otherwise, and strict mode rejects most schemas), left out when there are none.
 * `extraBody` adds fields (`reasoning`, `max_output_tokens`, `previous_response_id`, `store: true`,
 * more `include` entries) but cannot replace model, input, tools or stream.
 * Throws `TypeError` for a message with an unknown role.
 */
export function toResponsesRequest(request: ModelRequest, options: ResponsesRequestOptions): Record<string, unknown> {
  const extra = options.extraBody ?? {};
  const include = Array.isArray(extra['include']) ? (extra['include'] as unknown[]) : [];
  const store = extra['store'] === true;
  return {
    ...extra,
    model: options.model,
    input: toResponsesInput(request.messages),
    stream: true,
    store,
    ...(!store && { include: include.includes(ENCRYPTED_REASONING) ? include : [...include, ENCRYPTED_REASONING] }),
    ...(request.tools.length > 0 && {
      tools: request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
    }),
  };
}
