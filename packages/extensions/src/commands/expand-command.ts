import type { Command } from './command.js';

/** A command made into the prompt of a turn. */
export interface ExpandedCommand {
  readonly prompt: string;
  /** What weir did not do as the file asks, one line each (the `!` shell lines it does not run). */
  readonly notes: readonly string[];
}

/**
 * The prompt of `/name args`: `$ARGUMENTS` becomes the whole argument text, `$1`...`$9` the
 * arguments one by one (split at spaces; quotes group), a missing one empty. When the body names
 * neither and arguments were given, they follow the body as `ARGUMENTS: ...` (as Claude Code does).
 * Shell lines (`!` and a command in backticks) are not run: they reach the model as text, and a
 * note says so.
 */
export function expandCommand(command: Pick<Command, 'name' | 'body'>, args: string): ExpandedCommand {
  const argsText = args.trim();
  const positional = splitArguments(argsText);
  let used = false;
  const prompt = command.body
    .replace(/\$ARGUMENTS\b/g, () => {
      used = true;
      return argsText;
    })
    .replace(/\$([1-9])(?!\d)/g, (_, digit: string) => {
      used = true;
      return positional[Number(digit) - 1] ?? '';
    })
    .trim();
  const notes = /!`[^`]+`/.test(command.body) ? [`/${command.name} has shell lines (!\`...\`): weir does not run them; the model reads them as text`] : [];
  return { prompt: !used && argsText !== '' ? `${prompt}\n\nARGUMENTS: ${argsText}` : prompt, notes };
}

/** Splits at spaces; "double" or 'single' quotes keep a group together. */
function splitArguments(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** `/name rest` as `{ name, args }`; `undefined` when the line is not a slash command. */
export function parseCommandLine(line: string): { readonly name: string; readonly args: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  return match === null ? undefined : { name: match[1]!, args: match[2] ?? '' };
}
