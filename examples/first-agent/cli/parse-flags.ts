import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '@weir/cli';

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON = { debug: { type: 'boolean' }, help: { type: 'boolean' } } as const;
/** What `parseFlags` returns: node:util's result for these options. */
export type Flags<O extends Options> = ReturnType<typeof parseArgs<{ options: O & typeof COMMON; allowPositionals: true; strict: true }>>;

/**
 * The program's flags, parsed strictly: an unknown flag, a flag missing its value or a value given to
 * a switch throws a `UsageError` (exit status 2) that names the flag and shows `usage`. `--debug`
 * (the stack of a failure, read by `runProgram`) and `--help` are accepted everywhere; positionals
 * are the lines to send (a line starting with "-" goes after `--`).
 */
export function parseFlags<const O extends Options>(usage: string, options: O): Flags<O> {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: { ...options, ...COMMON },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // node:util's parse errors are TypeErrors with an ERR_PARSE_ARGS_* code; anything else is a bug.
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(`${firstSentence(error.message)} (usage: ${usage})`);
    }
    throw error;
  }
}

function firstSentence(message: string): string {
  const end = message.search(/\.(\s|$)/);
  return end === -1 ? `${message}.` : message.slice(0, end + 1);
}
