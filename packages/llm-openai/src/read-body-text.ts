// Moved to @weir/core (model-http), shared with the other HTTP adapters.
export { readBodyText } from '@weir/core';
