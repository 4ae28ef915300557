import { createGoogleModel, type GoogleModel } from './create-google-model.js';
import { GoogleError } from './google-error.js';
import type { GoogleModelOptions } from './google-model-options.js';

/** Options of `googleModelFromEnv`: any model option overrides its variable; `env` replaces `process.env`. */
export interface GoogleModelFromEnvOptions extends Partial<GoogleModelOptions> {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `createGoogleModel` configured from `GEMINI_API_KEY` (or `GOOGLE_API_KEY`), `GEMINI_MODEL` and,
 * when set, `GEMINI_BASE_URL` (blank counts as unset); an option given here wins over its variable.
 * Throws `GoogleError('INVALID_CONFIG')` naming every missing variable. The key never appears in a message.
 */
export function googleModelFromEnv(options: GoogleModelFromEnvOptions = {}): GoogleModel {
  const { env = process.env, ...rest } = options;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const apiKey = rest.apiKey ?? read('GEMINI_API_KEY') ?? read('GOOGLE_API_KEY');
  const model = rest.model ?? read('GEMINI_MODEL');
  const baseURL = rest.baseURL ?? read('GEMINI_BASE_URL');
  const missing = [...(apiKey === undefined ? ['GEMINI_API_KEY (or GOOGLE_API_KEY)'] : []), ...(model === undefined ? ['GEMINI_MODEL (e.g. gemini-2.5-flash)'] : [])];
  if (apiKey === undefined || model === undefined) {
    throw new GoogleError('INVALID_CONFIG', `Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Set ${missing.length > 1 ? 'them' : 'it'}, or pass the matching option (apiKey, model) to googleModelFromEnv().`);
  }
  return createGoogleModel({ ...rest, apiKey, model, ...(baseURL !== undefined && { baseURL }) });
}
