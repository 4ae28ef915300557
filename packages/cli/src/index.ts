// The public surface of @weir/cli: the command line as a function, for programs that embed it, and
// the small pieces a program of its own that talks to a model in a terminal needs too.
export { main, version } from './main.js';
export { USAGE, parseCliFlags } from './cli-flags.js';
export type { CliCommand, CliFlags } from './cli-flags.js';
export { errorStacks, oneLineError } from './one-line-error.js';
export { modelWaits } from './model-waits.js';
export { UsageError } from './usage-error.js';
export type { ModelWaits } from './model-waits.js';
