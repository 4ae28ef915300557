import { readFile } from 'node:fs/promises';
import type { ServedPrompt, McpPromptSource } from './mcp-prompt-source.js';

// What is read of `@weir/extensions`'s `Command` and `Skill`, written out so that the types of
// `@weir/mcp` do not need that optional package installed.
/** A slash command as `loadCommands` gives it (the fields read here). */
export interface PromptCommand {
  readonly name: string;
  readonly description: string;
  readonly argumentHint?: string;
  readonly body: string;
}

/** A skill as `loadSkills` gives it (the fields read here). */
export interface PromptSkill {
  readonly name: string;
  readonly description: string;
  readonly dir: string;
  readonly file: string;
}

export interface CommandPromptsOptions {
  /** Slash commands, as `loadCommands` from `@weir/extensions` gives them. */
  readonly commands?: readonly PromptCommand[];
  /** Agent Skills, as `loadSkills` gives them. */
  readonly skills?: readonly PromptSkill[];
}

/** The one argument a command prompt takes: the text after `/name`. */
export const COMMAND_ARGUMENTS = 'arguments';

/**
 * A harness's slash commands and skills as MCP prompts. A command is a prompt of its name with
 * one optional argument, `arguments` (the text after `/name`: `$ARGUMENTS`, `$1`...`$9`), expanded
 * by `@weir/extensions`'s `expandCommand` (shell lines are not run; the message says so). A skill
 * is a prompt of its name, no arguments, whose message is its `SKILL.md` body, read when asked,
 * with the folder its files are in. A skill whose name a command has is left out (the command is
 * what `/name` runs). Throws when `@weir/extensions` is not installed.
 */
export async function commandPrompts(options: CommandPromptsOptions): Promise<McpPromptSource> {
  const { expandCommand, parseFrontMatter } = await import('@weir/extensions');
  const commands = new Map((options.commands ?? []).map((command) => [command.name, command] as const));
  const skills = new Map((options.skills ?? []).filter((skill) => !commands.has(skill.name)).map((skill) => [skill.name, skill] as const));
  const listing: ServedPrompt[] = [
    ...[...commands.values()].map((command) => ({
      name: command.name,
      title: `/${command.name}`,
      description: command.description,
      arguments: [{ name: COMMAND_ARGUMENTS, description: command.argumentHint ?? 'The text after the command.', required: false }],
    })),
    ...[...skills.values()].map((skill) => ({ name: skill.name, title: `skill ${skill.name}`, description: skill.description })),
  ];

  return {
    list: () => listing,
    async get(name, args) {
      const command = commands.get(name);
      if (command !== undefined) {
        const unknown = Object.keys(args).filter((key) => key !== COMMAND_ARGUMENTS);
        if (unknown.length > 0) return { ok: false, reason: 'invalid', message: `/${name} takes one argument, "${COMMAND_ARGUMENTS}"; not ${unknown.map((key) => JSON.stringify(key)).join(', ')}.` };
        const { prompt, notes } = expandCommand(command, args[COMMAND_ARGUMENTS] ?? '');
        const text = notes.length === 0 ? prompt : `${prompt}\n\n${notes.map((note) => `[${note}]`).join('\n')}`;
        return { ok: true, description: command.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
      }
      const skill = skills.get(name);
      if (skill === undefined) return { ok: false, reason: 'not-found', message: `There is no prompt ${JSON.stringify(name)}; prompts/list has the ones there are.` };
      if (Object.keys(args).length > 0) return { ok: false, reason: 'invalid', message: `The skill ${name} takes no arguments.` };
      let body: string;
      try {
        body = (await parseFrontMatter(await readFile(skill.file, 'utf8'))).body.trim();
      } catch (error) {
        return { ok: false, reason: 'not-found', message: `The skill ${name} could not be read (${(error as { code?: string }).code ?? (error as Error).message}).` };
      }
      return { ok: true, description: skill.description, messages: [{ role: 'user', content: { type: 'text', text: `${body}\n\n[skill ${skill.name}, from ${skill.dir}]` } }] };
    },
  };
}
