import { join } from 'node:path';
import type { Harness, LanguageModel } from '@weir/core';
import type { HookEvents } from '@weir/hooks';
import { subagentStopPlugin } from './subagent-stop.js';
import type { Command, ExtensionRoot, LoadedAgents, LoadedCommands, LoadedSkills, NestedInstructions, ProjectInstructions, ToolNarrowing } from '@weir/extensions';

/** What the CLI read from the workspace and the weir home: instructions, skills, commands, agents. */
export interface WorkspaceExtensions {
  /** The workspace they were read for: `/context` shows paths relative to it. */
  readonly workspace: string;
  readonly instructions: ProjectInstructions;
  readonly nested: NestedInstructions;
  readonly skills: LoadedSkills;
  readonly commands: LoadedCommands;
  readonly agents: LoadedAgents;
  readonly narrowing: ToolNarrowing;
  /** The system prompt's part: the instructions, then the skill list. */
  readonly systemText: string;
  /** The number of bytes of `systemText` the skill list takes. */
  readonly skillsBytes: number;
  /** A command file by name. */
  command(name: string): Command | undefined;
}

/** Where the CLI looks, and whether Claude Code's folders count too. */
export interface ExtensionPlaces {
  readonly workspace: string;
  /** The weir home (`~/.weir`). */
  readonly home: string;
  /** The compat switch: `CLAUDE.md`, `GEMINI.md` and `.claude/{skills,commands,agents}` too. */
  readonly claude: boolean;
  /** The CLI's own slash commands, which a file never replaces. */
  readonly reservedCommands: readonly string[];
  /** More folders, read after the project's, the person's and Claude Code's (a plugin bundle's, labelled `plugin <name>`). */
  readonly more?: { readonly skills?: readonly ExtensionRoot[]; readonly commands?: readonly ExtensionRoot[]; readonly agents?: readonly ExtensionRoot[] };
}

/**
 * Reads everything the workspace and the weir home hold for the agent: the project's folders
 * first (`.weir/...`), then the person's (`~/.weir/...`), then with the compat switch Claude Code's
 * (`.claude/...`), so a project's skill or command of a name wins. None of it grants anything: a
 * skill, command or agent only narrows what the rules let run, so an untrusted folder's files load
 * too (the trust question is about code and rules, which these are not).
 */
export async function loadWorkspaceExtensions(places: ExtensionPlaces): Promise<WorkspaceExtensions> {
  const ext = await import('@weir/extensions');
  const { workspace, home, claude } = places;
  const fileNames = ext.instructionFileNames({ claude });
  const roots = (kind: 'skills' | 'commands' | 'agents') => [
    { dir: join(workspace, '.weir', kind), source: 'project' },
    { dir: join(home, kind), source: 'user' },
    ...(claude ? [{ dir: join(workspace, '.claude', kind), source: 'claude (project)' }] : []),
    ...(places.more?.[kind] ?? []),
  ];
  const [instructions, skills, commands, agents] = await Promise.all([
    ext.loadProjectInstructions({ workspace, userDir: home, fileNames }),
    ext.loadSkills(roots('skills')),
    ext.loadCommands(roots('commands'), places.reservedCommands),
    ext.loadAgentDefinitions(roots('agents')),
  ]);
  const nested = ext.nestedInstructions({ workspace, fileNames, seen: instructions.seen });
  const skillsText = ext.skillsSection(skills.skills);
  const systemText = [instructions.text, skillsText].filter((part) => part !== '').join('\n\n');
  const byName = new Map(commands.commands.map((command) => [command.name, command] as const));
  return {
    workspace,
    instructions,
    nested,
    skills,
    commands,
    agents,
    narrowing: ext.toolNarrowing('tool-narrowing', [ext.SKILL_TOOL]),
    systemText,
    skillsBytes: Buffer.byteLength(skillsText),
    command: (name) => byName.get(name),
  };
}

/**
 * Loads the plugins of `extensions` into the harness: the narrowing (allowed-tools), the nested
 * instructions, the `skill` tool, one tool per subagent (on `model`, the session's: weir has one
 * model per session, so an agent's `model` is shown in `/context` and not followed). An agent whose
 * name a tool already has is left out, and said. With `hookEvents`, each finished subagent call
 * fires `SubagentStop` (subagent-stop.ts).
 */
export async function useWorkspaceExtensions(harness: Harness, extensions: WorkspaceExtensions, model: LanguageModel, say: (line: string) => void, hookEvents?: Pick<HookEvents, 'subagentStop'>): Promise<void> {
  const { agentsPlugin, skillsPlugin } = await import('@weir/extensions');
  await harness.use(extensions.narrowing.plugin);
  await harness.use(extensions.nested.plugin);
  await harness.use(skillsPlugin({ skills: extensions.skills.skills, narrowing: extensions.narrowing }));
  const taken = new Set(harness.tools.names());
  const agents = extensions.agents.agents.filter((agent) => {
    if (!taken.has(agent.name)) return true;
    say(`[agents] ${agent.file}: not loaded: a tool is already named ${agent.name}`);
    return false;
  });
  if (agents.length === 0) return;
  await harness.use(agentsPlugin({ agents, model }));
  // A subagent's finished call fires SubagentStop before the parent goes on.
  if (hookEvents !== undefined) await harness.use(await subagentStopPlugin(agents.map((agent) => agent.name), hookEvents));
}
