// The public surface of @weir/extensions, by name. Everything else is internal.
export { ExtensionsError } from './extensions-error.js';
export type { ExtensionsErrorCode } from './extensions-error.js';
export type { ExtensionRoot, LoadProblem, SourceLabel } from './load-problem.js';
export { parseFrontMatter } from './front-matter/parse-front-matter.js';
export type { FrontMatterFile } from './front-matter/parse-front-matter.js';
export { conservativeTokens } from './estimate-tokens.js';

export { loadProjectInstructions } from './instructions/load-project-instructions.js';
export type { ProjectInstructions, ProjectInstructionsOptions } from './instructions/load-project-instructions.js';
export { nestedInstructions } from './instructions/nested-instructions.js';
export type { NestedInstructions, NestedInstructionsOptions } from './instructions/nested-instructions.js';
export { DEFAULT_MAX_INSTRUCTION_BYTES, instructionFileNames } from './instructions/instruction-file.js';
export type { InstructionFile } from './instructions/instruction-file.js';

export { loadSkills } from './skills/load-skills.js';
export type { LoadedSkills } from './skills/load-skills.js';
export type { Skill } from './skills/skill.js';
export { DEFAULT_MAX_SKILL_TOKENS, skillsSection } from './skills/skills-section.js';
export { SKILL_TOOL } from './skills/skill-tool.js';
export { skillsPlugin } from './skills/skills-plugin.js';
export type { SkillsPluginOptions } from './skills/skills-plugin.js';

export { toolNarrowing } from './tool-access/narrowing.js';
export type { Narrowing, ToolNarrowing } from './tool-access/narrowing.js';
export { parseToolList, permits } from './tool-access/tool-list.js';
export type { ToolRule } from './tool-access/tool-list.js';
export { CLAUDE_TOOL_NAMES } from './tool-access/claude-tool-names.js';

export { loadCommands } from './commands/load-commands.js';
export type { LoadedCommands } from './commands/load-commands.js';
export type { Command } from './commands/command.js';
export { expandCommand, parseCommandLine } from './commands/expand-command.js';
export type { ExpandedCommand } from './commands/expand-command.js';

export { loadAgentDefinitions } from './agents/load-agent-definitions.js';
export type { LoadedAgents } from './agents/load-agent-definitions.js';
export type { AgentDefinition } from './agents/agent-definition.js';
export { agentsPlugin, MAX_AGENT_DESCRIPTION_CHARS } from './agents/agents-plugin.js';
export type { AgentsPluginOptions } from './agents/agents-plugin.js';
