// Project instructions from the AGENTS.md files people publish: merged nearest last, each file
// once, imports expanded, the cap cutting the furthest first and saying so, and a deeper file
// joining the first time the agent works in its folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { instructionFileNames, loadProjectInstructions, nestedInstructions } from '@weir/extensions';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { tempDir, type TempDir } from './skill-workspace.js';

const agentsMd = sharedFixture('claude-ecosystem/agents-md', 'the published AGENTS.md, CLAUDE.md and GEMINI.md files load unchanged');
const compat = instructionFileNames({ claude: true });
const text = (path: string) => readFileSync(path, 'utf8').replace(/\r\n?/g, '\n').trim();

let temp: TempDir | undefined;
afterEach(() => {
  temp?.remove();
  temp = undefined;
});

describe.runIf(agentsMd)('the published instruction files', () => {
  const repo = (name: string) => join(agentsMd!, name);

  it('every file of the index joins its repository root or its own folder, whole, once', async () => {
    const index = JSON.parse(readFileSync(join(agentsMd!, 'INDEX.json'), 'utf8')) as { path: string; imports?: string[] }[];
    // A file that is only imports becomes what it imports (the next case).
    for (const entry of index.filter((candidate) => (candidate.imports ?? []).length === 0)) {
      const file = join(agentsMd!, '..', entry.path);
      const folder = join(file, '..');
      const root = join(agentsMd!, entry.path.split('/')[1]!);
      const loaded = await loadProjectInstructions({ workspace: folder, root, fileNames: compat, maxBytes: 1 << 20 });
      expect(loaded.problems, entry.path).toEqual([]);
      // A CLAUDE.md that is a copy of AGENTS.md (a symbolic link once) is the same text: read once.
      expect(loaded.text.split(text(file).slice(0, 200)).length - 1, entry.path).toBe(1);
    }
  });

  it("a CLAUDE.md that only imports AGENTS.md adds nothing twice; GEMINI.md's imports are expanded", async () => {
    const safetyNet = await loadProjectInstructions({ workspace: repo('kenryu42__claude-code-safety-net'), root: repo('kenryu42__claude-code-safety-net'), fileNames: compat });
    expect(safetyNet.files.map((file) => file.path.split('/').at(-1))).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(safetyNet.text, safetyNet.text.slice(-200)).toContain('(AGENTS.md: already included above)');
    expect(safetyNet.text.match(/# Style Guide/g)).toHaveLength(1);

    const superpowers = await loadProjectInstructions({ workspace: repo('obra__superpowers'), root: repo('obra__superpowers'), fileNames: compat, maxBytes: 1 << 20 });
    expect(superpowers.files.map((file) => [file.path.slice(repo('obra__superpowers').length + 1), file.source])).toEqual([
      ['AGENTS.md', 'project'],
      ['GEMINI.md', 'project'],
      ['skills/using-superpowers/SKILL.md', 'import'],
      ['skills/using-superpowers/references/gemini-tools.md', 'import'],
    ]);
    expect(superpowers.text).toContain(text(join(repo('obra__superpowers'), 'skills/using-superpowers/references/gemini-tools.md')).slice(0, 100));
    expect(superpowers.text).not.toContain('@./skills/using-superpowers/SKILL.md');
  });

  it('without the compat switch only AGENTS.md is read', async () => {
    const loaded = await loadProjectInstructions({ workspace: repo('affaan-m__everything-claude-code'), root: repo('affaan-m__everything-claude-code') });
    expect(loaded.files).toEqual([]);
    expect(loaded.text).toBe('');
  });

  it('the 34.6 KB AGENTS.md passes the 32 KiB cap: it is cut at a line and the cut is said', async () => {
    const loaded = await loadProjectInstructions({ workspace: repo('openai__openai-agents-js'), root: repo('openai__openai-agents-js'), fileNames: compat });
    expect(Buffer.byteLength(loaded.text)).toBeLessThanOrEqual(32 * 1024);
    expect(loaded.cuts).toEqual([expect.stringMatching(/^AGENTS\.md: cut to \d+ of 34656 bytes \(the instructions are capped at 32768 bytes; nearer files come first\)$/)]);
    expect(loaded.text).toContain('[weir cut AGENTS.md here:');
    expect(loaded.files[0]).toMatchObject({ bytes: 34656 });
    expect(loaded.files[0]!.keptBytes).toBeLessThan(34656);
  });

  it('from a deep folder: root first, nearest last; over the cap the furthest is cut first', async () => {
    const root = repo('pydantic__pydantic-ai');
    const workspace = join(root, 'pydantic_ai_slim/pydantic_ai/models');
    const whole = await loadProjectInstructions({ workspace, root });
    expect(whole.files.map((file) => file.path.slice(root.length + 1))).toEqual(['AGENTS.md', 'pydantic_ai_slim/pydantic_ai/AGENTS.md', 'pydantic_ai_slim/pydantic_ai/models/AGENTS.md']);
    expect(whole.text.indexOf('# Instructions from AGENTS.md')).toBeLessThan(whole.text.indexOf('# Instructions from pydantic_ai_slim/pydantic_ai/models/AGENTS.md'));
    const capped = await loadProjectInstructions({ workspace, root, maxBytes: 14_000 });
    expect(capped.cuts).toHaveLength(1);
    expect(capped.cuts[0]).toMatch(/^AGENTS\.md: cut to/);
    expect(capped.text).toContain(text(join(workspace, 'AGENTS.md')));
  });

  it('a deeper AGENTS.md joins the result of the first call that works in its folder, once', async () => {
    const root = repo('pydantic__pydantic-ai');
    const top = await loadProjectInstructions({ workspace: root, root });
    const nested = nestedInstructions({ workspace: root, seen: top.seen });
    const harness = createHarness();
    await harness.use(fsTools({ root }));
    await harness.use(nested.plugin);
    const first = await harness.executeToolCall({ id: '1', name: 'list_dir', arguments: { path: 'pydantic_ai_slim/pydantic_ai/models' } });
    expect(first.ok).toBe(true);
    expect(first.context).toHaveLength(1);
    expect(first.context[0]).toContain('Instructions from pydantic_ai_slim/pydantic_ai/AGENTS.md');
    expect(first.context[0]).toContain(text(join(root, 'pydantic_ai_slim/pydantic_ai/models/AGENTS.md')).slice(0, 300));
    const again = await harness.executeToolCall({ id: '2', name: 'read_file', arguments: { path: 'pydantic_ai_slim/pydantic_ai/models/AGENTS.md' } });
    expect(again.context).toEqual([]);
    const atRoot = await harness.executeToolCall({ id: '3', name: 'read_file', arguments: { path: 'AGENTS.md' } });
    expect(atRoot.context).toEqual([]);
    expect(nested.joined().map((file) => file.path.slice(root.length + 1))).toEqual(['pydantic_ai_slim/pydantic_ai/AGENTS.md', 'pydantic_ai_slim/pydantic_ai/models/AGENTS.md']);
    await harness.close();
  });
});

describe('instruction files of a project of its own', () => {
  it("the person's ~/.weir/AGENTS.md comes first, an import outside the project stays a note, a code fence's @ line stays text", async () => {
    temp = tempDir();
    temp.write('home/AGENTS.md', 'Answer briefly.');
    temp.write('repo/.git/HEAD', 'ref: refs/heads/main\n');
    temp.write('repo/AGENTS.md', 'Use pnpm.\n@../outside.md\n```\n@not-an-import.md\n```');
    temp.write('outside.md', 'OUTSIDE');
    temp.write('repo/app/AGENTS.md', 'Run the app tests.');
    const loaded = await loadProjectInstructions({ workspace: join(temp.dir, 'repo/app'), userDir: join(temp.dir, 'home') });
    expect(loaded.files.map((file) => file.source)).toEqual(['user', 'project', 'project']);
    expect(loaded.text.startsWith('# Instructions from ')).toBe(true);
    expect(loaded.text).toContain('(your own)');
    expect(loaded.text).toContain('(weir did not import ../outside.md: it lies outside the project)');
    expect(loaded.text).toContain('@not-an-import.md');
    expect(loaded.text).not.toContain('OUTSIDE');
    expect(loaded.text.trimEnd().endsWith('Run the app tests.')).toBe(true);
  });
});
