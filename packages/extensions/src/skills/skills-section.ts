import { conservativeTokens } from '../estimate-tokens.js';
import type { Skill } from './skill.js';

/** Default bound on one skill's line in the first request: 90 tokens (`conservativeTokens`). */
export const DEFAULT_MAX_SKILL_TOKENS = 90;

const HEADING = [
  '# Skills',
  '',
  'Skills are instructions for particular kinds of task. When a task matches a skill below, call the `skill` tool with its name before you start, and follow what it says; read the files it mentions with `skill` too ({"name": ..., "file": ...}).',
  '',
].join('\n');

/**
 * The system prompt's list of skills: one line each, `- name: description`, only the skills the
 * model may invoke. A description is shortened (at a word, with `…`) so that the line stays within
 * `maxTokens` conservative tokens; the body is not here: `skill` reads it when the model asks.
 * Empty when there is no skill to list.
 */
export function skillsSection(skills: readonly Skill[], maxTokens = DEFAULT_MAX_SKILL_TOKENS): string {
  const listed = skills.filter((skill) => skill.modelInvocable);
  if (listed.length === 0) return '';
  return HEADING + listed.map((skill) => skillLine(skill, maxTokens)).join('\n');
}

/** One skill's line within `maxTokens`. */
export function skillLine(skill: Pick<Skill, 'name' | 'description'>, maxTokens: number): string {
  const line = `- ${skill.name}: ${skill.description}`;
  if (conservativeTokens(line) <= maxTokens) return line;
  const budget = maxTokens * 3 - Buffer.byteLength(`- ${skill.name}: …`);
  let cut = Buffer.from(skill.description).subarray(0, Math.max(0, budget)).toString('utf8').replace(/\uFFFD$/, '');
  const space = cut.lastIndexOf(' ');
  if (space > cut.length / 2) cut = cut.slice(0, space);
  return `- ${skill.name}: ${cut.trimEnd()}…`;
}
