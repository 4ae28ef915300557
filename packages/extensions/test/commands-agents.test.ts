// Slash commands and subagents from the files people publish: each loads as it is; a command's
// arguments fill its template; a subagent runs with its body as system prompt, only its tools,
// and the parent's safety rules.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { safety } from '@weir/safety';
import { fsTools } from '@weir/tools-fs';
import { agentsPlugin, expandCommand, loadAgentDefinitions, loadCommands, parseCommandLine } from '@weir/extensions';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { tempDir, type TempDir } from './skill-workspace.js';

const plugins = sharedFixture('claude-ecosystem/plugins', 'the published commands and agent files load unchanged');

let temp: TempDir | undefined;
afterEach(() => {
  temp?.remove();
  temp = undefined;
});

/** Every folder named `name` under `dir`. */
function foldersNamed(dir: string, name: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const path = join(dir, entry.name);
    return entry.name === name ? [path] : foldersNamed(path, name);
  });
}

describe.runIf(plugins)('the published commands and agents', () => {
  it('every command file loads, with its front matter; built-in names are refused, not overridden', async () => {
    const roots = foldersNamed(plugins!, 'commands');
    let count = 0;
    for (const dir of roots) {
      const { commands, problems } = await loadCommands([{ dir, source: 'plugin' }], ['exit']);
      expect(problems, dir).toEqual([]);
      expect(commands.length, dir).toBe(readdirSync(dir).filter((file) => file.endsWith('.md')).length);
      count += commands.length;
    }
    expect(count).toBeGreaterThanOrEqual(10);
    const hookify = foldersNamed(plugins!, 'commands').find((dir) => dir.includes('hookify'))!;
    const withHelp = await loadCommands([{ dir: hookify, source: 'plugin' }], ['help']);
    expect(withHelp.commands.map((command) => command.name)).not.toContain('help');
    expect(withHelp.problems).toEqual([{ file: join(hookify, 'help.md'), reason: "not loaded: /help is a command of weir's own" }]);
  });

  it("a command's $ARGUMENTS and allowed-tools, from the ticket command as published", async () => {
    const dir = join(plugins!, '_standalone-commands/ChrisWiles__claude-code-showcase/.claude/commands');
    const { commands } = await loadCommands([{ dir, source: 'claude' }]);
    const ticket = commands.find((command) => command.name === 'ticket')!;
    expect(ticket.description).toBe('Work on a JIRA/Linear ticket end-to-end');
    expect(ticket.allowedTools?.map((rule) => rule.tool)).toEqual(['read_file', 'write_file', 'edit_file', 'find_files', 'search_files', 'run_command', 'run_command', 'run_command', 'jira__*', 'github__*', 'linear__*']);
    const { prompt } = expandCommand(ticket, 'PROJ-123 fix the login');
    expect(prompt).toContain('Work on ticket: PROJ-123 fix the login');
    expect(prompt).not.toContain('$ARGUMENTS');
    const example = (await loadCommands([{ dir: foldersNamed(plugins!, 'commands').find((d) => d.includes('example-plugin'))!, source: 'plugin' }])).commands[0]!;
    expect(example.argumentHint).toBe('<required-arg> [optional-arg]');
    expect(example.allowedTools?.map((rule) => rule.written)).toEqual(['Read', 'Glob', 'Grep', 'Bash']);
  });

  it('every agent file loads: name, description, tools mapped to weir names, the body as system prompt', async () => {
    const roots = foldersNamed(plugins!, 'agents');
    let count = 0;
    for (const dir of roots) {
      const { agents, problems } = await loadAgentDefinitions([{ dir, source: 'plugin' }]);
      expect(problems.filter((problem) => problem.reason.startsWith('not loaded')), dir).toEqual([]);
      expect(agents.length, dir).toBe(readdirSync(dir).filter((file) => file.endsWith('.md')).length);
      for (const agent of agents) expect(agent.system.length, agent.file).toBeGreaterThan(100);
      count += agents.length;
    }
    expect(count).toBeGreaterThanOrEqual(10);
    const explorer = (await loadAgentDefinitions([{ dir: foldersNamed(plugins!, 'agents').find((d) => d.includes('feature-dev'))!, source: 'plugin' }])).agents[0]!;
    expect(explorer.name).toBe('code-explorer');
    expect(explorer.tools).toEqual(['find_files', 'search_files', 'list_dir', 'read_file', 'NotebookRead', 'WebFetch', 'TodoWrite', 'WebSearch', 'KillShell', 'BashOutput']);
  });

  it("a published subagent runs as a tool: its body is the child's system prompt, it sees only its tools, and the parent's rules hold", async () => {
    const dir = foldersNamed(plugins!, 'agents').find((d) => d.includes('_standalone-agents') && d.includes('hookify'))!;
    const { agents } = await loadAgentDefinitions([{ dir, source: 'claude' }]);
    const analyzer = agents[0]!;
    expect(analyzer.tools).toEqual(['read_file', 'search_files']);
    temp = tempDir();
    temp.write('notes.txt', 'hello');
    const model = createScriptedModel([
      { toolCalls: [{ name: analyzer.name, arguments: { task: 'Analyse notes.txt' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }, { name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
      { text: 'The notes say hello.' },
      { text: 'Done: the notes say hello.' },
    ]);
    const harness = createHarness();
    await harness.use(fsTools({ root: temp.dir, write: true }));
    await harness.use(safety({ mode: 'read-only' }));
    await harness.use(agentsPlugin({ agents, model }));
    const result = await createAgent({ model, harness, system: 'parent' }).turn('Look at my notes.');
    expect(result.text).toBe('Done: the notes say hello.');
    model.assertAllUsed();
    const child = model.requests[1]!;
    expect(child.messages[0]).toMatchObject({ role: 'system', content: analyzer.system });
    expect(child.tools?.map((tool) => tool.name).sort()).toEqual(['read_file', 'search_files']);
    const childResults = model.requests[2]!.messages.filter((message) => message.role === 'tool');
    expect(childResults[0]!.content).toContain('hello');
    // write_file is not among its tools: it is not offered, and a call to it does not run.
    expect(childResults[1]!.content).toMatch(/^Error \[TOOL_NOT_FOUND\]/);
    expect(readdirSync(temp.dir)).toEqual(['notes.txt']);
  });

  it("a subagent whose tools list Write still cannot write where the parent's rules say no", async () => {
    temp = tempDir();
    temp.write('agents/scribe.md', '---\nname: scribe\ndescription: Writes files.\ntools: Write, Read\nmodel: sonnet\n---\nYou write files when asked.');
    const { agents } = await loadAgentDefinitions([{ dir: join(temp.dir, 'agents'), source: 'project' }]);
    expect(agents[0]).toMatchObject({ name: 'scribe', tools: ['write_file', 'read_file'], model: 'sonnet', system: 'You write files when asked.' });
    const model = createScriptedModel([
      { toolCalls: [{ name: 'scribe', arguments: { task: 'Write out.txt' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] },
      { text: 'I could not.' },
      { text: 'It could not.' },
    ]);
    const harness = createHarness();
    await harness.use(fsTools({ root: temp.dir, write: true }));
    await harness.use(safety({ mode: 'read-only' }));
    await harness.use(agentsPlugin({ agents, model }));
    await createAgent({ model, harness }).turn('Write it.');
    model.assertAllUsed();
    expect(model.requests[2]!.messages.at(-1)!.content).toMatch(/^Error \[DENIED\]/);
    expect(readdirSync(temp.dir)).toEqual(['agents']);
  });
});

describe('command templates', () => {
  it('fills $1..$9 (quotes group), leaves a missing one empty, appends ARGUMENTS when the body names none, and does not run ! lines', () => {
    expect(expandCommand({ name: 'fix', body: 'Fix issue $1 in $2.' }, '42 "the parser"').prompt).toBe('Fix issue 42 in the parser.');
    expect(expandCommand({ name: 'fix', body: 'Fix issue $1 in $2.' }, '42').prompt).toBe('Fix issue 42 in .');
    expect(expandCommand({ name: 'plain', body: 'Review the code.' }, 'src/a.ts').prompt).toBe('Review the code.\n\nARGUMENTS: src/a.ts');
    expect(expandCommand({ name: 'plain', body: 'Review the code.' }, '').prompt).toBe('Review the code.');
    expect(expandCommand({ name: 'git', body: 'Status: !`git status`' }, '').notes).toEqual(['/git has shell lines (!`...`): weir does not run them; the model reads them as text']);
    expect(parseCommandLine('/review  src/a.ts now')).toEqual({ name: 'review', args: 'src/a.ts now' });
    expect(parseCommandLine('hello')).toBeUndefined();
  });

  it('a sub-folder makes a namespace, and an earlier root keeps its name', async () => {
    temp = tempDir();
    temp.write('project/frontend/component.md', '---\ndescription: Makes a component\n---\nMake $ARGUMENTS');
    temp.write('project/review.md', 'Review it');
    temp.write('user/review.md', 'Review it my way');
    const { commands, problems } = await loadCommands([
      { dir: join(temp.dir, 'project'), source: 'project' },
      { dir: join(temp.dir, 'user'), source: 'user' },
    ]);
    expect(commands.map((command) => [command.name, command.source, command.description])).toEqual([
      ['frontend:component', 'project', 'Makes a component'],
      ['review', 'project', 'Review it'],
    ]);
    expect(problems).toEqual([{ file: join(temp.dir, 'user/review.md'), reason: `not loaded: /review is taken by ${join(temp.dir, 'project/review.md')} (project)` }]);
  });
});
