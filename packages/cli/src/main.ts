import { parseCliFlags, USAGE, type CliFlags } from './cli-flags.js';
import { errorStacks, oneLineError } from './one-line-error.js';
import { UsageError } from './usage-error.js';

/**
 * weir's command line: parses `args`, runs the command and resolves to the exit status (2 for a
 * usage error, 1 for any other failure, 130 after Ctrl-C). A failure is printed as one line,
 * `[error] <message>`, on standard error; `--debug` adds the stacks. Never rejects.
 */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let flags: CliFlags | undefined;
  try {
    // `weir plugin ...` has flags of its own (plugin-command.ts).
    if (args[0] === 'plugin') return await (await import('./plugin-command.js')).pluginCommand(args.slice(1), env);
    flags = parseCliFlags(args);
    switch (flags.command) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${await version()}\n`);
        return 0;
      case 'run':
        return await (await import('./run-headless.js')).runHeadless(flags, env);
      case 'sessions':
        if (flags.positionals[0] === 'gc') return await (await import('./sessions-gc.js')).collectSessionGarbage(flags);
        return await (await import('./list-sessions.js')).listSessions(flags);
      case 'rewind':
        return await (await import('./rewind-command.js')).rewindCommand(flags);
      case 'trust':
        return await (await import('./trust-command.js')).trustCommand(flags, env);
      case 'acp':
        return await (await import('./acp-command.js')).runAcp(flags, env);
      case 'interactive':
        return await (await import('./interactive.js')).runInteractive(flags, env);
    }
  } catch (error) {
    process.stderr.write(`[error] ${oneLineError(error)}\n`);
    if (flags?.debug ?? args.includes('--debug')) process.stderr.write(`${errorStacks(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** The package's version, read from its package.json. */
export async function version(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
