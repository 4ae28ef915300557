import { errorStacks, oneLineError, UsageError } from '@weir/cli';

/**
 * Runs an example's `main` as a command-line program: a failure prints one line on standard error
 * (`[error] <message>`) and ends the program with status 2 for a usage error, 1 for anything
 * else; with `--debug` the stack (and each cause's) follows. `main` cleans up after itself (its
 * `finally` blocks run before this reports).
 */
export async function runProgram(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`[error] ${oneLineError(error)}`);
    if (debugRequested()) console.error(errorStacks(error));
    // Exit now: an open handle (a socket, a timer of a half-done call) must not keep a failed program alive.
    // Writes to pipes, files and terminals are synchronous on Linux, so nothing printed is lost.
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}

function debugRequested(): boolean {
  const args = process.argv.slice(2);
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--debug');
}
