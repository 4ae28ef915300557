// Moved to @weir/core (model-http), shared with the other HTTP adapters.
export { redactSecrets } from '@weir/core';
