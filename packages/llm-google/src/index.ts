export { createGoogleModel } from './create-google-model.js';
export type { GoogleModel } from './create-google-model.js';

export { googleModelFromEnv } from './google-model-from-env.js';
export type { GoogleModelFromEnvOptions } from './google-model-from-env.js';

export { DEFAULT_BASE_URL } from './google-model-options.js';
export type { GoogleModelOptions } from './google-model-options.js';
export type { SchemaForm } from './to-gemini-schema.js';

export { GoogleError, isGoogleError } from './google-error.js';
export type { GoogleErrorCode, GoogleErrorDetails } from './google-error.js';

export type { RetryEvent } from './google-model-options.js';
