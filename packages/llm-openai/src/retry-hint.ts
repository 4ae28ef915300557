// Moved to @weir/core (model-http), shared with the other HTTP adapters.
export { retryHint } from '@weir/core';
export type { HeaderSource } from '@weir/core';
