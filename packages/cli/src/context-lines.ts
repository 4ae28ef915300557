import { relative } from 'node:path';
import type { WorkspaceExtensions } from './workspace-extensions.js';

/** `/context`: what joined the agent's context, from where, and how big; then what did not load and why. */
export function contextLines(extensions: WorkspaceExtensions, workspace: string): string[] {
  const where = (path: string) => {
    const rel = relative(workspace, path);
    return rel.startsWith('..') ? path : rel;
  };
  const { instructions, nested, skills, commands, agents } = extensions;
  const lines: string[] = [];
  const joined = [...instructions.files, ...nested.joined()];
  const kept = joined.reduce((sum, file) => sum + file.keptBytes, 0);
  lines.push(`[context] instructions: ${joined.length} file${joined.length === 1 ? '' : 's'}, ${kept} bytes in the prompt`);
  for (const file of joined) {
    const size = file.keptBytes === file.bytes ? `${file.bytes} bytes` : `${file.keptBytes} of ${file.bytes} bytes (cut)`;
    lines.push(`  ${where(file.path)}  ${file.source}${file.importedBy === undefined ? '' : ` from ${where(file.importedBy)}`}  ${size}`);
  }
  for (const cut of instructions.cuts) lines.push(`  cut: ${cut}`);
  lines.push(`[context] skills: ${skills.skills.length}, their list ${extensions.skillsBytes} bytes in the prompt (bodies load when the model asks)`);
  for (const skill of skills.skills) {
    lines.push(`  ${skill.name}  ${skill.source}  ${where(skill.file)}  ${skill.bytes} bytes${skill.modelInvocable ? '' : ' (not offered to the model)'}${skill.allowedTools === undefined ? '' : `  allowed-tools: ${skill.allowedTools.map((rule) => rule.written).join(', ')}`}`);
  }
  lines.push(`[context] commands: ${commands.commands.length}`);
  for (const command of commands.commands) lines.push(`  /${command.name}  ${command.source}  ${where(command.file)}  ${command.bytes} bytes`);
  lines.push(`[context] subagents: ${agents.agents.length}`);
  for (const agent of agents.agents) {
    lines.push(`  ${agent.name}  ${agent.source}  ${where(agent.file)}  ${agent.bytes} bytes  tools: ${agent.tools?.join(', ') ?? 'all'}${agent.model === undefined ? '' : `  model: ${agent.model} (runs on the session's)`}`);
  }
  const problems = [...instructions.problems, ...nested.problems(), ...skills.problems, ...commands.problems, ...agents.problems];
  if (problems.length > 0) lines.push(`[context] ${problems.length} note${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) lines.push(`  ${where(problem.file)}: ${problem.reason}`);
  return lines;
}
