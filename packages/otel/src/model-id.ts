/** weir's provider prefixes whose OpenTelemetry name differs (the GenAI conventions' well-known values). */
const SEMCONV_PROVIDER: Readonly<Record<string, string>> = { google: 'gcp.gemini' };

/**
 * A weir model id (`openai:gpt-4.1-mini`, `google:gemini-2.5-flash`, `mock:rules`) as the conventions
 * name it: the provider (`gen_ai.provider.name`) before the first colon, under its conventional name
 * (`google` is `gcp.gemini`), the model (`gen_ai.request.model`) after it. An id without a provider
 * part is all model, from provider `'unknown'`.
 */
export function splitModelId(id: string): { readonly provider: string; readonly model: string } {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) return { provider: 'unknown', model: id };
  const prefix = id.slice(0, colon);
  return { provider: SEMCONV_PROVIDER[prefix] ?? prefix, model: id.slice(colon + 1) };
}
