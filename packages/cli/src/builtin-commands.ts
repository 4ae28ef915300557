/**
 * The names of weir's own slash commands, without the slash: a command file never takes one
 * (`/help` from a plugin's `help.md` is refused, and `/context` says so). A test checks that every
 * command of `/help` is here.
 */
export const BUILTIN_COMMAND_NAMES: readonly string[] = ['help', 'tools', 'plugins', 'hooks', 'context', 'reload', 'model', 'mode', 'usage', 'compact', 'rewind', 'exit', 'quit'];
