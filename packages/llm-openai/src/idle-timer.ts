// Moved to @weir/core (model-http), shared with the other HTTP adapters.
export { IdleTimer } from '@weir/core';
