/**
 * A weir model id (`openai:gpt-4.1-mini`, `mock:rules`) as the conventions name it: the provider
 * (`gen_ai.provider.name`) before the first colon, the model (`gen_ai.request.model`) after it. An id
 * without a provider part is all model, from provider `'unknown'`.
 */
export function splitModelId(id: string): { readonly provider: string; readonly model: string } {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) return { provider: 'unknown', model: id };
  return { provider: id.slice(0, colon), model: id.slice(colon + 1) };
}
