import type { LanguageModel } from '@weir/core';
import { createMockModel } from '@weir/llm-mock';
import { modelWaits, type ModelWaits } from '@weir/cli';

/** Defaults of the examples, shorter than the package's: a stalled server is given up on sooner. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const LONGEST_NOTICE_MS = 10_000;

/** The model an example talks to, how to say which it is, and what shows its waits. */
export interface ChosenModel {
  readonly model: LanguageModel;
  /** For the `[model]` line every example prints first. */
  readonly description: string;
  /** What shows the model's retries and silences on standard error. */
  readonly progress: ModelWaits;
}

/**
 * The model the examples talk to. The first set of variables wins (`ANTHROPIC_*`, `OPENAI_*`, then
 * `GEMINI_*`, which is Gemini from `googleModelFromEnv()`; `OPENAI_API=responses` is the Responses
 * API): any `ANTHROPIC_*` variable
 * set is Claude from `anthropicModelFromEnv()` (`ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL`, optionally
 * `ANTHROPIC_BASE_URL`, `ANTHROPIC_MAX_RETRIES`); else, when any `OPENAI_*` variable is set, an OpenAI-compatible
 * endpoint from `openAIModelFromEnv()` (an incomplete set fails with its error, naming what is
 * missing; there is no silent fallback to the mock). `OPENAI_API_KEY` may be left unset for a
 * local server without keys (Ollama, LM Studio, vLLM): no Authorization header is sent then.
 * The examples also read `OPENAI_IDLE_TIMEOUT_MS` (default 60 000: the longest silence before an
 * attempt is given up) and `OPENAI_MAX_RETRIES` (default 2). With no `OPENAI_*` variable, the
 * deterministic `mock` (no key needed). The `[model]` line says which. Each provider's package is
 * loaded only when it is used.
 */
export async function chooseModel(mock: () => LanguageModel = createMockModel, env: NodeJS.ProcessEnv = process.env): Promise<ChosenModel> {
  const setWith = (prefix: string) => Object.keys(env).filter((name) => name.startsWith(prefix) && env[name]?.trim());
  if (setWith('ANTHROPIC_').length > 0) {
    const { anthropicModelFromEnv } = await import('@weir/llm-anthropic');
    const progress = modelWaits(toStandardError, LONGEST_NOTICE_MS);
    const maxRetries = number(env, 'ANTHROPIC_MAX_RETRIES', undefined, 0);
    const model = anthropicModelFromEnv({ idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, ...(maxRetries === undefined ? {} : { maxRetries }), onRetry: progress.onRetry, env });
    const base = env.ANTHROPIC_BASE_URL?.trim();
    return { model, description: `${model.id} at ${base ? where(base) : 'api.anthropic.com'} (ANTHROPIC_* is set: Claude, with prompt caching)`, progress };
  }
  if (setWith('OPENAI_').length === 0 && setWith('GEMINI_').length > 0) {
    const { googleModelFromEnv } = await import('@weir/llm-google');
    const progress = modelWaits(toStandardError, LONGEST_NOTICE_MS);
    const maxRetries = number(env, 'GEMINI_MAX_RETRIES', undefined, 0);
    const model = googleModelFromEnv({ idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, ...(maxRetries === undefined ? {} : { maxRetries }), onRetry: progress.onRetry, env });
    const base = env.GEMINI_BASE_URL?.trim();
    return { model, description: `${model.id} at ${base ? where(base) : 'generativelanguage.googleapis.com'} (GEMINI_* is set: Gemini, with thought signatures)`, progress };
  }
  if (setWith('OPENAI_').length === 0) {
    const model = mock();
    return { model, description: `${model.id} (the mock model: no ANTHROPIC_*, OPENAI_* or GEMINI_* variable is set)`, progress: modelWaits(toStandardError, LONGEST_NOTICE_MS) };
  }
  const { openAIModelFromEnv } = await import('@weir/llm-openai');
  const idleTimeoutMs = number(env, 'OPENAI_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, 1);
  const maxRetries = number(env, 'OPENAI_MAX_RETRIES', undefined, 0);
  // A notice before the idle limit runs out, at most every 10 s.
  const progress = modelWaits(toStandardError, Math.min(LONGEST_NOTICE_MS, Math.max(250, Math.floor(idleTimeoutMs / 3))));
  const model = openAIModelFromEnv({
    ...(env.OPENAI_API_KEY?.trim() ? {} : { apiKey: '' }),
    idleTimeoutMs,
    ...(maxRetries === undefined ? {} : { maxRetries }),
    onRetry: progress.onRetry,
    env,
  });
  return { model, description: `${model.id} at ${where(env.OPENAI_BASE_URL ?? '')}${env.OPENAI_API_KEY?.trim() ? '' : ' (no OPENAI_API_KEY: no key sent)'}`, progress };
}

/** Notices go to standard error: standard output stays the transcript. */
const toStandardError = (line: string) => console.error(line);

function number<D extends number | undefined>(env: NodeJS.ProcessEnv, name: string, fallback: D, min: number): number | D {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}.`);
  return value;
}

/** The base URL without credentials or query: what the `[model]` line shows. */
function where(baseURL: string): string {
  try {
    const url = new URL(baseURL.trim());
    return `${url.origin}${url.pathname}`;
  } catch {
    return JSON.stringify(baseURL);
  }
}
