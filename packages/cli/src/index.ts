// The public surface of @weir/cli: the command line as a function, for programs that embed it.
export { main, version } from './main.js';
export { USAGE, parseCliFlags } from './cli-flags.js';
export type { CliCommand, CliFlags } from './cli-flags.js';
