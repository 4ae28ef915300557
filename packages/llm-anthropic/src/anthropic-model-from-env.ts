import { AnthropicError } from './anthropic-error.js';
import type { AnthropicModelOptions } from './anthropic-model-options.js';
import { createAnthropicModel, type AnthropicModel } from './create-anthropic-model.js';

/** Options of `anthropicModelFromEnv`: any model option overrides its variable; `env` replaces `process.env`. */
export interface AnthropicModelFromEnvOptions extends Partial<AnthropicModelOptions> {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `createAnthropicModel` configured from `ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL` and, optionally,
 * `ANTHROPIC_BASE_URL` (blank counts as unset); an option given here wins over its variable.
 * Throws `AnthropicError('INVALID_CONFIG')` naming every missing variable; the key never appears
 * in a message.
 */
export function anthropicModelFromEnv(options: AnthropicModelFromEnvOptions = {}): AnthropicModel {
  const { env = process.env, ...rest } = options;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const apiKey = rest.apiKey ?? read('ANTHROPIC_API_KEY');
  const model = rest.model ?? read('ANTHROPIC_MODEL');
  const baseURL = rest.baseURL ?? read('ANTHROPIC_BASE_URL');
  const missing = [...(apiKey === undefined ? ['ANTHROPIC_API_KEY'] : []), ...(model === undefined ? ['ANTHROPIC_MODEL (e.g. claude-sonnet-4-5)'] : [])];
  if (apiKey === undefined || model === undefined) {
    throw new AnthropicError(
      'INVALID_CONFIG',
      `Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Set ${missing.length > 1 ? 'them' : 'it'}, or pass the matching option (apiKey, model) to anthropicModelFromEnv().`,
    );
  }
  return createAnthropicModel({ ...rest, apiKey, model, ...(baseURL === undefined ? {} : { baseURL }) });
}
