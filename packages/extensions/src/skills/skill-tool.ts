import { readFile } from 'node:fs/promises';
import { defineTool, ToolCallError, type ToolDefinition } from '@weir/core';
import { parseFrontMatter } from '../front-matter/parse-front-matter.js';
import type { ToolNarrowing } from '../tool-access/narrowing.js';
import { listSkillFiles, readSkillFile } from './read-skill-file.js';
import type { Skill } from './skill.js';

/** The tool's name: the one the system prompt's skill list tells the model to call. */
export const SKILL_TOOL = 'skill';

/**
 * The `skill` tool: `{ name }` returns that skill's instructions (the body of its `SKILL.md`, read
 * now) with the list of its files; `{ name, file }` returns one of those files, read-only and
 * confined to the skill's folder. Loading a skill with `allowed-tools` narrows the rest of the turn
 * to those tools through `narrowing` (it never widens: every call still meets the rules). A name
 * the model may not invoke fails `UNKNOWN_SKILL` with the names it may.
 */
export function skillTool(skills: readonly Skill[], narrowing: ToolNarrowing): ToolDefinition<{ readonly name: string; readonly file?: string }> {
  const byName = new Map(skills.filter((skill) => skill.modelInvocable).map((skill) => [skill.name, skill] as const));
  return defineTool({
    name: SKILL_TOOL,
    description: "Reads a skill's instructions (name), or one of its files (name and file). The system prompt lists the skills.",
    tier: 'read-only',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill, as the list names it.' },
        file: { type: 'string', description: "A file of the skill's folder, relative to it." },
      },
      required: ['name'],
      additionalProperties: false,
    },
    execute: async ({ name, file }, exec) => {
      const skill = byName.get(name);
      if (skill === undefined) throw new ToolCallError('UNKNOWN_SKILL', `There is no skill "${name}". The skills: ${[...byName.keys()].join(', ') || 'none'}.`);
      if (file !== undefined) return readSkillFile(skill.dir, file);
      const { body } = await parseFrontMatter(await readFile(skill.file, 'utf8'));
      const files = await listSkillFiles(skill.dir);
      const notes = [`[skill ${skill.name}, from ${skill.dir}]`];
      if (files.length > 0) notes.push(`[its files, read with skill {"name": "${skill.name}", "file": <path>}: ${files.join(', ')}]`);
      if (skill.allowedTools !== undefined) {
        narrowing.narrow(exec.run.id, { by: `the skill "${skill.name}"`, rules: skill.allowedTools });
        notes.push(`[for the rest of this turn only these tools run: ${skill.allowedTools.map((rule) => rule.written).join(', ') || 'none'}; each still needs what the safety rules ask]`);
      }
      return `${body.trim()}\n\n${notes.join('\n')}`;
    },
  });
}
