// Agent Skills end to end: the published skills load as they are, the first request lists only
// names and descriptions, a body reaches the model only after it asks, a skill's files stay in its
// folder, and allowed-tools narrows what runs but never lets through what the rules refuse.
import { readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, definePlugin, defineTool } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { safety } from '@weir/safety';
import { fsTools } from '@weir/tools-fs';
import { conservativeTokens, loadSkills, skillsPlugin, skillsSection, toolNarrowing, type Skill } from '@weir/extensions';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { skillMd, tempDir, type TempDir } from './skill-workspace.js';

const skillsFixtures = sharedFixture('claude-ecosystem/skills', 'the published Agent Skills load unchanged');
const pluginsFixtures = sharedFixture('claude-ecosystem/plugins', "the plugins' skills load unchanged");

let temp: TempDir | undefined;
afterEach(() => {
  temp?.remove();
  temp = undefined;
});

interface IndexEntry {
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly allowedTools: string[] | string | null;
}

describe.runIf(skillsFixtures)('the published skills', () => {
  it('every skill of the index loads with its name, description and allowed-tools, and none is skipped', async () => {
    const index = JSON.parse(readFileSync(join(skillsFixtures!, 'INDEX.json'), 'utf8')) as IndexEntry[];
    const owners = readdirSync(skillsFixtures!, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const { skills, problems } = await loadSkills(owners.map((owner) => ({ dir: join(skillsFixtures!, owner.name), source: owner.name })));
    expect(problems.filter((problem) => problem.reason.startsWith('not loaded'))).toEqual([]);
    expect(skills).toHaveLength(index.length);
    for (const entry of index) {
      const skill = skills.find((candidate) => candidate.name === entry.name)!;
      expect(skill, entry.path).toBeDefined();
      expect(skill.description).toBe(entry.description.trim().replace(/\s+/g, ' '));
      const written = entry.allowedTools === null ? undefined : Array.isArray(entry.allowedTools) ? entry.allowedTools : entry.allowedTools.split(/,\s*/);
      expect(skill.allowedTools?.map((rule) => rule.written).filter((value, i, all) => all.indexOf(value) === i), entry.path).toEqual(written);
    }
  });
});

describe.runIf(pluginsFixtures)("the plugins' skills", () => {
  it('every SKILL.md a plugin ships loads (some only line by line, which is said)', async () => {
    const roots: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        if (entry.name === 'skills') roots.push(path);
        else walk(path);
      }
    };
    walk(pluginsFixtures!);
    let count = 0;
    for (const dir of roots) {
      const { skills, problems } = await loadSkills([{ dir, source: 'plugin' }]);
      expect(problems.filter((problem) => problem.reason.startsWith('not loaded')), dir).toEqual([]);
      expect(skills.length, dir).toBe(readdirSync(dir).filter((name) => readdirSync(join(dir, name)).includes('SKILL.md')).length);
      count += skills.length;
    }
    expect(count).toBeGreaterThan(20);
  });
});

/** A harness with the file tools on `root`, safety as given, and the skills of `root/.weir/skills`. */
async function harnessWithSkills(root: string, safetyOptions: Parameters<typeof safety>[0] = { mode: 'auto' }) {
  const { skills, problems } = await loadSkills([{ dir: join(root, '.weir/skills'), source: 'project' }]);
  expect(problems).toEqual([]);
  const narrowing = toolNarrowing('tool-narrowing', ['skill']);
  const harness = createHarness();
  await harness.use(fsTools({ root, write: true }));
  await harness.use(safety(safetyOptions));
  await harness.use(narrowing.plugin);
  await harness.use(skillsPlugin({ skills, narrowing }));
  await harness.use(standInShell);
  return { harness, skills };
}

/** A shell tool of weir's name that only says what it would run: the narrowing is what is tested. */
const standInShell = definePlugin({
  name: 'stand-in-shell',
  setup(ctx) {
    ctx.tools.register(
      defineTool({
        name: 'run_command',
        description: 'Runs a command.',
        tier: 'dangerous',
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
        execute: ({ command }: { command: string }) => `would run ${command}`,
      }),
    );
  },
});

const BODY = 'Step one of the release: bump the version in VERSION, then read checklist.md.';

describe('progressive disclosure', () => {
  it("the first request holds the skill's name and description; the body reaches the model only after it calls skill", async () => {
    temp = tempDir();
    temp.write('.weir/skills/release/SKILL.md', skillMd({ name: 'release', description: 'Cuts a release of this project. Use when asked to release or ship.' }, BODY));
    temp.write('.weir/skills/release/checklist.md', 'The checklist: tag, push, announce.');
    const { harness, skills } = await harnessWithSkills(temp.dir);
    const model = createScriptedModel([
      { toolCalls: [{ name: 'skill', arguments: { name: 'release' } }] },
      { toolCalls: [{ name: 'skill', arguments: { name: 'release', file: 'checklist.md' } }] },
      { text: 'Released.' },
    ]);
    const agent = createAgent({ model, harness, system: `You are weir.\n\n${skillsSection(skills)}` });
    const result = await agent.turn('Ship it.');
    expect(result.text).toBe('Released.');
    model.assertAllUsed();

    const [first, second, third] = model.requests;
    const firstText = JSON.stringify(first);
    expect(firstText).toContain('- release: Cuts a release of this project. Use when asked to release or ship.');
    expect(firstText).not.toContain('Step one of the release');
    expect(first!.tools?.map((tool) => tool.name)).toContain('skill');
    const loaded = second!.messages.at(-1)!;
    expect(loaded.role).toBe('tool');
    expect(loaded.content).toContain(BODY);
    expect(loaded.content).toContain('checklist.md');
    expect(third!.messages.at(-1)!.content).toContain('The checklist: tag, push, announce.');
    await harness.close();
  });

  it("a skill's file is read from its folder only: .. and a symbolic link out fail, and nothing is written", async () => {
    temp = tempDir();
    temp.write('.weir/skills/notes/SKILL.md', skillMd({ name: 'notes', description: 'Keeps notes.' }, 'Read guide.md.'));
    temp.write('.weir/skills/notes/guide.md', 'guide');
    temp.write('secret.txt', 'the secret');
    symlinkSync(join(temp.dir, 'secret.txt'), join(temp.dir, '.weir/skills/notes/link.md'));
    const { harness } = await harnessWithSkills(temp.dir);
    const read = (file: string) => harness.executeToolCall({ id: file, name: 'skill', arguments: { name: 'notes', file } });
    expect((await read('guide.md')).content).toBe('guide');
    for (const file of ['../../../secret.txt', 'link.md', join(temp.dir, 'secret.txt')]) {
      const result = await read(file);
      expect(result.ok, file).toBe(false);
      expect(result.ok ? '' : result.error.code).toBe('OUTSIDE_SKILL');
      expect(result.content).not.toContain('the secret');
    }
    const unknown = await harness.executeToolCall({ id: 'u', name: 'skill', arguments: { name: 'nope' } });
    expect(unknown.ok ? '' : unknown.error.code).toBe('UNKNOWN_SKILL');
    expect(unknown.content).toContain('notes');
    await harness.close();
  });
});

describe('the skill list stays small', () => {
  it('with 50 skills (descriptions of the 1024 characters the spec allows), the list and the skill tool take under 100 tokens a skill', async () => {
    temp = tempDir();
    const words = 'Handles a particular kind of task in this project when the person asks for it, with care and attention to detail; ';
    for (let index = 0; index < 50; index += 1) {
      const description = `${`Skill ${index}. ${words.repeat(20)}`.slice(0, 1024)}`;
      temp.write(`.weir/skills/skill-number-${index}/SKILL.md`, skillMd({ name: `skill-number-${index}`, description: JSON.stringify(description) }, `Body ${index}`));
    }
    const { harness, skills } = await harnessWithSkills(temp.dir);
    expect(skills).toHaveLength(50);
    const section = skillsSection(skills);
    const schema = JSON.stringify(harness.tools.schemas().find((tool) => tool.name === 'skill'));
    const perSkill = (conservativeTokens(section) + conservativeTokens(schema)) / 50;
    expect(perSkill).toBeLessThan(100);
    for (const line of section.split('\n').filter((line) => line.startsWith('- '))) expect(conservativeTokens(line)).toBeLessThanOrEqual(90);
    expect(section).toContain('- skill-number-7: Skill 7. Handles a particular kind of task');
    await harness.close();
  });

  it('a skill with disable-model-invocation is not listed and the model cannot load it', async () => {
    temp = tempDir();
    temp.write('.weir/skills/deploy/SKILL.md', skillMd({ name: 'deploy', description: 'Deploys.', 'disable-model-invocation': 'true' }, 'Deploy body'));
    temp.write('.weir/skills/lint/SKILL.md', skillMd({ name: 'lint', description: 'Lints.' }, 'Lint body'));
    const { harness, skills } = await harnessWithSkills(temp.dir);
    expect(skillsSection(skills)).not.toContain('deploy');
    const result = await harness.executeToolCall({ id: 'd', name: 'skill', arguments: { name: 'deploy' } });
    expect(result.ok).toBe(false);
    await harness.close();
  });
});

describe('allowed-tools narrows, never widens', () => {
  const setUp = async (safetyOptions: Parameters<typeof safety>[0], allowed: string) => {
    temp = tempDir();
    temp.write('notes.txt', 'hello');
    temp.write('.weir/skills/writer/SKILL.md', skillMd({ name: 'writer', description: 'Writes notes.', 'allowed-tools': allowed }, 'Write the notes.'));
    return harnessWithSkills(temp.dir, safetyOptions);
  };
  const turn = async (harness: Awaited<ReturnType<typeof harnessWithSkills>>['harness'], calls: { name: string; arguments: Record<string, unknown> }[]) => {
    const model = createScriptedModel([{ toolCalls: [{ name: 'skill', arguments: { name: 'writer' } }] }, { toolCalls: calls }, { text: 'done' }]);
    await createAgent({ model, harness }).turn('go');
    return model.requests[2]!.messages.filter((message) => message.role === 'tool').slice(-calls.length);
  };

  it('in read-only mode a skill that lists Write still cannot write; a tool it does not list is blocked; a listed read runs', async () => {
    const { harness } = await setUp({ mode: 'read-only' }, 'Read, Write');
    const [write, find, read] = await turn(harness, [
      { name: 'write_file', arguments: { path: 'out.txt', content: 'x' } },
      { name: 'find_files', arguments: { pattern: '*.txt' } },
      { name: 'read_file', arguments: { path: 'notes.txt' } },
    ]);
    expect(write!.content).toMatch(/DENIED/);
    expect(write!.content).not.toContain('allows only');
    expect(find!.content).toContain('the skill "writer" allows only Read, Write while it is active');
    expect(read!.content).toContain('hello');
    await harness.close();
  });

  it('a deny rule holds for a tool the skill lists, and Bash(git:*) lets no other command through', async () => {
    const { harness } = await setUp({ mode: 'allow-all-unsafe', rules: [{ deny: 'read_file', path: 'notes.txt' }] }, '"Read Bash(git:*)"');
    const [read, shell] = await turn(harness, [
      { name: 'read_file', arguments: { path: 'notes.txt' } },
      { name: 'run_command', arguments: { command: 'rm -rf .' } },
    ]);
    expect(read!.content).toMatch(/DENIED/);
    expect(read!.content).not.toContain('hello');
    expect(shell!.content).toContain('allows only Read, Bash(git:*)');
    const [git] = await turn(harness, [{ name: 'run_command', arguments: { command: 'git status' } }]);
    expect(git!.content).toBe('would run git status');
    await harness.close();
  });

  it('the narrowing ends with the turn', async () => {
    const { harness } = await setUp({ mode: 'auto' }, 'Read');
    await turn(harness, [{ name: 'find_files', arguments: { pattern: '*.txt' } }]);
    const after = await createAgent({ model: createScriptedModel([{ toolCalls: [{ name: 'find_files', arguments: { pattern: '*.txt' } }] }, { text: 'ok' }]), harness }).turn('again');
    expect(after.steps.flatMap((step) => step.toolResults ?? []).map((result) => result.ok)).toEqual([true]);
    await harness.close();
  });
});

export type { Skill };

describe('a narrowing for the next turn', () => {
  it('applies from the next turn-start to that turn only, and dropPending keeps it from a later turn', async () => {
    temp = tempDir();
    temp.write('a.txt', 'a');
    const narrowing = toolNarrowing('tool-narrowing', []);
    const harness = createHarness();
    await harness.use(fsTools({ root: temp.dir }));
    await harness.use(narrowing.plugin);
    const { parseToolList } = await import('@weir/extensions');
    const find = () => createAgent({ model: createScriptedModel([{ toolCalls: [{ name: 'find_files', arguments: { pattern: '*.txt' } }] }, { text: 'ok' }]), harness }).turn('find');
    const firstOk = (result: Awaited<ReturnType<typeof find>>) => result.steps.flatMap((step) => step.toolResults ?? []).map((r) => r.ok);
    narrowing.narrowNextTurn({ by: 'the command /x', rules: parseToolList('Read', 'allowed-tools')! });
    expect(firstOk(await find())).toEqual([false]);
    expect(firstOk(await find())).toEqual([true]);
    narrowing.narrowNextTurn({ by: 'the command /x', rules: parseToolList('Read', 'allowed-tools')! });
    narrowing.dropPending();
    expect(firstOk(await find())).toEqual([true]);
    await harness.close();
  });
});
