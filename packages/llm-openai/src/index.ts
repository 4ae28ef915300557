export { createOpenAIModel } from './create-openai-model.js';
export type { OpenAIModel } from './create-openai-model.js';

export { openAIModelFromEnv } from './openai-model-from-env.js';
export type { OpenAIModelFromEnvOptions } from './openai-model-from-env.js';

export type { OpenAIApi, OpenAIModelOptions } from './openai-model-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_TIMEOUT_MS } from './openai-model-options.js';

export { OpenAIError, isOpenAIError } from './openai-error.js';
export type { OpenAIErrorCode, OpenAIErrorDetails } from './openai-error.js';

export type { SendReasoning } from './to-wire-messages.js';
export type { RetryEvent } from './with-model-retry.js';
