import { createOpenAIModel, type OpenAIModel } from './create-openai-model.js';
import { OpenAIError } from './openai-error.js';
import type { OpenAIModelOptions } from './openai-model-options.js';

/** Options of `openAIModelFromEnv`: any model option overrides its variable; `env` replaces `process.env`. */
export interface OpenAIModelFromEnvOptions extends Partial<OpenAIModelOptions> {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `createOpenAIModel` configured from `OPENAI_BASE_URL`, `OPENAI_API_KEY` and `OPENAI_MODEL`, and
 * `OPENAI_API` (`chat`, the default, or `responses`; blank counts as unset); an option given here wins over its variable. Throws
 * `OpenAIError('INVALID_CONFIG')` naming every missing variable, and whatever `createOpenAIModel`
 * throws for a bad value. The key never appears in a message.
 */
export function openAIModelFromEnv(options: OpenAIModelFromEnvOptions = {}): OpenAIModel {
  const { env = process.env, ...rest } = options;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const baseURL = rest.baseURL ?? read('OPENAI_BASE_URL');
  const apiKey = rest.apiKey ?? read('OPENAI_API_KEY');
  const model = rest.model ?? read('OPENAI_MODEL');
  const api = rest.api ?? (read('OPENAI_API') as OpenAIModelOptions['api']);

  const missing = [
    ...(baseURL === undefined ? ['OPENAI_BASE_URL (e.g. https://api.openai.com/v1)'] : []),
    ...(apiKey === undefined ? ['OPENAI_API_KEY'] : []),
    ...(model === undefined ? ['OPENAI_MODEL (e.g. gpt-4.1-mini)'] : []),
  ];
  if (baseURL === undefined || apiKey === undefined || model === undefined) {
    throw new OpenAIError(
      'INVALID_CONFIG',
      `Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Set ${missing.length > 1 ? 'them' : 'it'}, or pass the matching option (baseURL, apiKey, model) to openAIModelFromEnv().`,
    );
  }
  return createOpenAIModel({ ...rest, baseURL, apiKey, model, ...(api !== undefined && { api }) });
}
