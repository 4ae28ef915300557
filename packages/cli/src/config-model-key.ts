import { modelNameForms, parseModelName } from './choose-model.js';
import { ConfigError } from './config-error.js';

/**
 * Keys that would put a secret or an endpoint in a config file, which is shared and committed: the
 * key and the endpoint come from the environment (or `--base-url`) only.
 */
const ENDPOINT_KEY = /api[-_]?key|base[-_]?url|secret|password|credential|(auth|access|bearer)[-_]?token|^(auth|authorization|key|token|url|endpoint|host)$/i;

/**
 * Throws a `ConfigError` for a key of `record` that would hold an API key or a base URL (`apiKey`,
 * `baseURL`, `OPENAI_API_KEY`...), saying why it is not accepted. `where` is the key's parent
 * (`""` at the top, `"model."` inside a `"model"` object).
 */
export function refuseEndpointKeys(record: Record<string, unknown>, where: string, file: string): void {
  const key = Object.keys(record).find((name) => ENDPOINT_KEY.test(name));
  if (key === undefined) return;
  throw new ConfigError(
    `The config file ${file} is not valid: "${where}${key}" is not accepted: the model's key and endpoint come only from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL, GEMINI_API_KEY...) or --base-url, never from a config file, which is shared and committed; the config names the model alone ("model": "<provider>:<id>").`,
  );
}

/** A config's `"model"`, checked: a `<provider>:<id>` the provider table knows (`--model`'s parser), or `undefined`. */
export function configModel(record: Record<string, unknown>, file: string): string | undefined {
  const value = record.model;
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) refuseEndpointKeys(value as Record<string, unknown>, 'model.', file);
  if (typeof value !== 'string' || parseModelName(value.trim()) === undefined) {
    throw new ConfigError(`The config file ${file} is not valid: "model" must be a string "<provider>:<id>" with a provider weir knows (${modelNameForms()}), got ${JSON.stringify(value)}.`);
  }
  return value.trim();
}
