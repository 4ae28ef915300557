import type { LanguageModel } from '@weir/core';
import type { RetryEvent } from '@weir/llm-openai';
import { UsageError } from './usage-error.js';

/** The CLI's default idle limit for a silent server: shorter than the package's 120 s, and shown. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** The model weir talks to, and the words of its `[model]` line. */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly description: string;
}

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
 * are imported only when used (cold start).
 */
export async function chooseModel(settings: ModelSettings): Promise<ChosenModel> {
  const { env } = settings;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const configured = Object.keys(env).filter((name) => name.startsWith('OPENAI_') && read(name) !== undefined);
  if (configured.length === 0 && settings.model === undefined && settings.baseURL === undefined) {
    const { createMockModel } = await import('@weir/llm-mock');
    const model = createMockModel();
    return { model, description: `${model.id} (the mock model: no OPENAI_* variable or --model is set)` };
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
  const { createOpenAIModel } = await import('@weir/llm-openai');
  const model = createOpenAIModel({
    baseURL,
    model: modelId,
    apiKey,
    idleTimeoutMs,
    maxRetries,
    ...(settings.onRetry === undefined ? {} : { onRetry: settings.onRetry }),
  });
  return { model, description: `${model.id} at ${where(baseURL)}${apiKey === '' ? ' (no OPENAI_API_KEY: no key sent)' : ''}` };
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
