import type { LanguageModel } from '@weir/core';
import type { RetryEvent } from '@weir/llm-openai';
import { UsageError } from './usage-error.js';

/** The CLI's default idle limit for a silent server: shorter than the package's 120 s, and shown. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** The model weir talks to, and the words of its `[model]` line. */
export interface ChosenModel {
  /** The model's id (`mock:rules`, `openai:<model>`), known before its package loads. */
  readonly id: string;
  readonly description: string;
  /**
   * The model itself. Its package (and through it `@weir/core`) is imported on the first call, so
   * the `[model]` line and the first prompt do not wait for it (cold start). Rejects with the
   * provider's error for a bad value (a base URL that is not a URL).
   */
  readonly load: () => Promise<LanguageModel>;
}

/** The mock's id, as `@weir/llm-mock` names it; a test checks that the two agree. */
export const MOCK_MODEL_ID = 'mock:rules';

/** Where the model's settings come from: flags win over the environment. */
export interface ModelSettings {
  readonly model?: string | undefined;
  readonly baseURL?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Told before each retry's wait. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/**
 * The model: the deterministic mock when nothing is configured; an OpenAI-compatible endpoint as
 * soon as `--model`, `--base-url` or any `OPENAI_*` variable is set. A set but incomplete
 * configuration throws a `UsageError` naming what is missing (never a silent fall back to the
 * mock). `OPENAI_API_KEY` may stay unset for a local server: no key is sent then. The providers
 * are imported by `load()` (cold start).
 */
export function chooseModel(settings: ModelSettings): ChosenModel {
  const { env } = settings;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const configured = Object.keys(env).filter((name) => name.startsWith('OPENAI_') && read(name) !== undefined);
  if (configured.length === 0 && settings.model === undefined && settings.baseURL === undefined) {
    return {
      id: MOCK_MODEL_ID,
      description: `${MOCK_MODEL_ID} (the mock model: no OPENAI_* variable or --model is set)`,
      load: once(async () => (await import('@weir/llm-mock')).createMockModel()),
    };
  }
  const baseURL = settings.baseURL ?? read('OPENAI_BASE_URL');
  const modelId = settings.model ?? read('OPENAI_MODEL');
  const missing = [
    ...(baseURL === undefined ? ['the endpoint (OPENAI_BASE_URL or --base-url, e.g. http://localhost:11434/v1)'] : []),
    ...(modelId === undefined ? ['the model (OPENAI_MODEL or --model, e.g. gpt-4.1-mini)'] : []),
  ];
  if (baseURL === undefined || modelId === undefined) {
    const given = [...configured, ...(settings.model === undefined ? [] : ['--model']), ...(settings.baseURL === undefined ? [] : ['--base-url'])];
    throw new UsageError(`The model is set only in part (${given.join(', ')}): ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing.`);
  }
  const idleTimeoutMs = wholeNumber(env, 'OPENAI_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, 1);
  const maxRetries = wholeNumber(env, 'OPENAI_MAX_RETRIES', 2, 0);
  const apiKey = read('OPENAI_API_KEY') ?? '';
  const load = once(async () => {
    const { createOpenAIModel } = await import('@weir/llm-openai');
    return createOpenAIModel({
      baseURL,
      model: modelId,
      apiKey,
      idleTimeoutMs,
      maxRetries,
      ...(settings.onRetry === undefined ? {} : { onRetry: settings.onRetry }),
    });
  });
  const id = `openai:${modelId}`;
  return { id, description: `${id} at ${where(baseURL)}${apiKey === '' ? ' (no OPENAI_API_KEY: no key sent)' : ''}`, load };
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
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
    return JSON.stringify(baseURL);
  }
}
