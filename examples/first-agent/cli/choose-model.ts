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
  const { openAIModelFromEnv } = await import('@weir/llm-openai');
  return openAIModelFromEnv();
}
