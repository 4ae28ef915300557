import { ownProviderData, type ModelRequest } from '@weir/core';
import { responsesCallOptions } from './responses-call-options.js';
import { RESPONSES_PROVIDER } from './responses-turn.js';
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
 * The call options become their fields (`responsesCallOptions`; `warnings` says what could not be
 * honoured). `extraBody` adds fields (`reasoning`, `max_output_tokens`, more `include` entries...)
 * but cannot replace model, input, tools or stream. With `extraBody.store: true` the request is
 * stateful: `previous_response_id` is the newest answer's response id (unless `extraBody` names one)
 * and only the messages after that answer are sent.
 * Throws `TypeError` for a message with an unknown role.
 */
export function toResponsesRequest(request: ModelRequest, options: ResponsesRequestOptions): { body: Record<string, unknown>; warnings: string[] } {
  const extra = options.extraBody ?? {};
  const include = Array.isArray(extra['include']) ? (extra['include'] as unknown[]) : [];
  const store = extra['store'] === true;
  const { fields, warnings } = responsesCallOptions(request.options);
  // Stored responses chain: the newest answer this API gave stands for the history up to it.
  const chained = store && extra['previous_response_id'] === undefined ? lastResponse(request) : undefined;
  return {
    body: {
      ...fields,
      ...extra,
      model: options.model,
      input: toResponsesInput(request.messages, chained?.index),
      stream: true,
      store,
      ...(chained !== undefined && { previous_response_id: chained.id }),
      ...(!store && { include: include.includes(ENCRYPTED_REASONING) ? include : [...include, ENCRYPTED_REASONING] }),
      ...(request.tools.length > 0 && {
        tools: request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
      }),
    },
    warnings,
  };
}

/** The newest assistant message that carries this API's response id, and where it is. */
function lastResponse(request: ModelRequest): { index: number; id: string } | undefined {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role !== 'assistant') continue;
    const id = ownProviderData(message.providerData, RESPONSES_PROVIDER)?.['responseId'];
    if (typeof id === 'string') return { index, id };
  }
  return undefined;
}
