import type { LanguageModel } from '@weir/core';
import { createMockModel } from '@weir/llm-mock';

/**
 * The model the examples talk to: an OpenAI-compatible endpoint when OPENAI_BASE_URL,
 * OPENAI_API_KEY and OPENAI_MODEL are all set, the deterministic mock otherwise (no key needed).
 * @weir/llm-openai is imported only when it is used, so the mock path never loads it.
 */
export async function chooseModel(): Promise<LanguageModel> {
  const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL } = process.env;
  if (!OPENAI_BASE_URL || !OPENAI_API_KEY || !OPENAI_MODEL) return createMockModel();
  // A specifier in a variable: this file typechecks whatever @weir/llm-openai exports today.
  const specifier = '@weir/llm-openai';
  const openai = (await import(specifier)) as { openAIModelFromEnv?: () => LanguageModel | Promise<LanguageModel> };
  if (typeof openai.openAIModelFromEnv !== 'function') {
    throw new Error('OPENAI_* is set, but this checkout of @weir/llm-openai has no openAIModelFromEnv yet. Unset OPENAI_BASE_URL to use the mock model.');
  }
  return openai.openAIModelFromEnv();
}
