export { createAnthropicModel } from './create-anthropic-model.js';
export type { AnthropicModel } from './create-anthropic-model.js';

export { anthropicModelFromEnv } from './anthropic-model-from-env.js';
export type { AnthropicModelFromEnvOptions } from './anthropic-model-from-env.js';

export type { AnthropicModelOptions } from './anthropic-model-options.js';
export { ANTHROPIC_VERSION, DEFAULT_BASE_URL, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_TIMEOUT_MS } from './anthropic-model-options.js';

export { AnthropicError, isAnthropicError } from './anthropic-error.js';
export type { AnthropicErrorCode, AnthropicErrorDetails } from './anthropic-error.js';

export { MAX_BREAKPOINTS } from './cache-breakpoints.js';
export { REASONING_BUDGETS } from './to-anthropic-request.js';
