import { redactUrl, type LanguageModel, type RetryEvent } from '@weir/core';
import { UsageError } from './usage-error.js';

/** What a provider row is given to build its model: the settings, and the variables read. */
export interface ProviderInput {
  /** The model id after the provider's prefix (`--model anthropic:<id>`), or from the environment. */
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly read: (name: string) => string | undefined;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** The flags and variables that chose this provider, for a message about what is missing. */
  readonly given: readonly string[];
}

/** A model chosen by a row: its id and `[model]` words before its package loads, and the loader. */
export interface ProviderChoice {
  readonly id: string;
  readonly description: string;
  readonly load: () => Promise<LanguageModel>;
}

/**
 * One provider the CLI can talk to. `prefix` is what `--model <prefix>:<id>` names; `env` the
 * prefix of its variables (`ANTHROPIC_`): the first row whose variables are set wins when no
 * `--model` names a provider. Another provider is one more row.
 */
export interface ModelProvider {
  readonly prefix: string;
  readonly env: string;
  /** Throws `UsageError` naming what is missing from a configuration set in part. */
  readonly choose: (input: ProviderInput) => ProviderChoice;
}

/** The CLI's default idle limit for a silent server: shorter than the packages' 120 s, and shown. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export const MODEL_PROVIDERS: readonly ModelProvider[] = [
  {
    prefix: 'anthropic',
    env: 'ANTHROPIC_',
    choose: ({ model, baseURL, read, onRetry, given }) => {
      const modelId = model ?? read('ANTHROPIC_MODEL');
      const apiKey = read('ANTHROPIC_API_KEY');
      const missing = [...(apiKey === undefined ? ['the key (ANTHROPIC_API_KEY)'] : []), ...(modelId === undefined ? ['the model (ANTHROPIC_MODEL or --model anthropic:<id>, e.g. claude-sonnet-4-5)'] : [])];
      if (apiKey === undefined || modelId === undefined) throw partial(given, missing);
      const url = baseURL ?? read('ANTHROPIC_BASE_URL');
      const idleTimeoutMs = wholeNumber(read, 'ANTHROPIC_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, 1);
      const maxRetries = wholeNumber(read, 'ANTHROPIC_MAX_RETRIES', 2, 0);
      const id = `anthropic:${modelId}`;
      const load = once(async () => {
        const { createAnthropicModel } = await import('@weir/llm-anthropic');
        return createAnthropicModel({ model: modelId, apiKey, idleTimeoutMs, maxRetries, ...(url === undefined ? {} : { baseURL: url }), ...(onRetry === undefined ? {} : { onRetry }) });
      });
      return { id, description: `${id} at ${url === undefined ? 'api.anthropic.com' : where(url)} (Messages API: thinking and prompt caching)`, load };
    },
  },
  openAIRow('openai', 'OPENAI_', undefined),
  {
    prefix: 'google',
    env: 'GEMINI_',
    choose: ({ model, baseURL, read, onRetry, given }) => {
      const modelId = model ?? read('GEMINI_MODEL');
      const apiKey = read('GEMINI_API_KEY') ?? read('GOOGLE_API_KEY');
      const missing = [...(apiKey === undefined ? ['the key (GEMINI_API_KEY or GOOGLE_API_KEY)'] : []), ...(modelId === undefined ? ['the model (GEMINI_MODEL or --model google:<id>, e.g. gemini-2.5-flash)'] : [])];
      if (apiKey === undefined || modelId === undefined) throw partial(given, missing);
      const url = baseURL ?? read('GEMINI_BASE_URL');
      const idleTimeoutMs = wholeNumber(read, 'GEMINI_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, 1);
      const maxRetries = wholeNumber(read, 'GEMINI_MAX_RETRIES', 2, 0);
      const id = `google:${modelId}`;
      const load = once(async () => {
        const { createGoogleModel } = await import('@weir/llm-google');
        return createGoogleModel({ model: modelId, apiKey, idleTimeoutMs, maxRetries, ...(url === undefined ? {} : { baseURL: url }), ...(onRetry === undefined ? {} : { onRetry }) });
      });
      return { id, description: `${id} at ${url === undefined ? 'generativelanguage.googleapis.com' : where(url)} (Gemini API: thoughts and their signatures)`, load };
    },
  },
  // Named only by `--model openai-responses:<id>`: the OPENAI_* variables choose the row above, which
  // takes OPENAI_API=responses for the same wire.
  openAIRow('openai-responses', 'OPENAI_', 'responses'),
];

/**
 * An OpenAI endpoint: Chat Completions, or the Responses API when `api` (or `OPENAI_API=responses`)
 * says so. Reasoning items travel between turns only on the Responses API.
 */
function openAIRow(prefix: string, env: string, api: 'responses' | undefined): ModelProvider {
  return {
    prefix,
    env,
    choose: ({ model, baseURL, read, onRetry, given }) => {
      const url = baseURL ?? read('OPENAI_BASE_URL');
      const modelId = model ?? read('OPENAI_MODEL');
      const missing = [
        ...(url === undefined ? ['the endpoint (OPENAI_BASE_URL or --base-url, e.g. http://localhost:11434/v1)'] : []),
        ...(modelId === undefined ? ['the model (OPENAI_MODEL or --model, e.g. gpt-4.1-mini)'] : []),
      ];
      if (url === undefined || modelId === undefined) throw partial(given, missing);
      const wire = api ?? read('OPENAI_API') ?? 'chat';
      if (wire !== 'chat' && wire !== 'responses') throw new UsageError(`OPENAI_API must be "chat" or "responses", got ${JSON.stringify(wire)}.`);
      const idleTimeoutMs = wholeNumber(read, 'OPENAI_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, 1);
      const maxRetries = wholeNumber(read, 'OPENAI_MAX_RETRIES', 2, 0);
      const apiKey = read('OPENAI_API_KEY') ?? '';
      const load = once(async () => {
        const { createOpenAIModel } = await import('@weir/llm-openai');
        return createOpenAIModel({ baseURL: url, model: modelId, apiKey, api: wire, idleTimeoutMs, maxRetries, ...(onRetry === undefined ? {} : { onRetry }) });
      });
      const id = `${wire === 'responses' ? 'openai-responses' : 'openai'}:${modelId}`;
      return { id, description: `${id} at ${where(url)}${wire === 'responses' ? ' (Responses API: reasoning kept between turns)' : ''}${apiKey === '' ? ' (no OPENAI_API_KEY: no key sent)' : ''}`, load };
    },
  };
}

function partial(given: readonly string[], missing: readonly string[]): UsageError {
  return new UsageError(`The model is set only in part (${given.join(', ')}): ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing.`);
}

export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

function wholeNumber(read: (name: string) => string | undefined, name: string, fallback: number, min: number): number {
  const text = read(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}.`);
  return value;
}

/** The base URL without credentials or query: what the `[model]` line shows. */
function where(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname}`;
  } catch {
    // One that does not parse may still carry a user:pass@ or a key in its query.
    return JSON.stringify(redactUrl(baseURL));
  }
}
