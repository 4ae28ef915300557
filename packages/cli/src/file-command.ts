import type { StartedWeir } from './start-weir.js';

/**
 * The prompt of a command file's `/name args` (`.weir/commands/name.md`), or `undefined` when no
 * command file has that name (a built-in one, or none). Its `allowed-tools` narrow the turn it
 * starts; what weir does not follow (a `model`, `!` shell lines) is a status line.
 */
export async function fileCommandPrompt(weir: StartedWeir, line: string, say: (line: string) => void): Promise<string | undefined> {
  const { expandCommand, parseCommandLine } = await import('@weir/extensions');
  const parsed = parseCommandLine(line);
  const command = parsed === undefined ? undefined : weir.extensions.command(parsed.name);
  if (parsed === undefined || command === undefined) return undefined;
  const { prompt, notes } = expandCommand(command, parsed.args);
  for (const note of notes) say(`[command] ${note}`);
  if (command.model !== undefined) say(`[command] /${command.name} asks for the model ${command.model}: weir runs it on this session's model`);
  if (command.allowedTools !== undefined) {
    weir.extensions.narrowing.narrowNextTurn({ by: `the command /${command.name}`, rules: command.allowedTools });
    say(`[command] /${command.name}: only ${command.allowedTools.map((rule) => rule.written).join(', ') || 'no tools'} run this turn (the safety rules still decide each)`);
  }
  return prompt;
}
