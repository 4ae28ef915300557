// The bypasses found by trying @weir/safety as an attacker would, each through the real file tools
// in a real temporary workspace. The oracle is the sentinel: a secret's marker never reaches a
// result, and a denied file's bytes never change.
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { safety, terminalApprover, type Approver, type ApproverAnswer } from '@weir/safety';
import { afterGuards, fsSafetyHarness, makeFsWorkspace, visible, type FsWorkspace } from './support/fs-workspace.js';

let ws: FsWorkspace;
let others: FsWorkspace[] = [];
let harness: Harness | undefined;

beforeEach(async () => {
  ws = await makeFsWorkspace();
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await ws.remove();
  for (const other of others.splice(0)) await other.remove();
});

function answers(...list: ApproverAnswer[]): Approver {
  return () => list.shift() ?? { decision: 'deny' };
}

describe('bypass 1: a deny on a directory holds through a link to it, and for every reading tool', () => {
  beforeEach(async () => {
    await ws.secret('secrets/key.txt');
    await ws.secret('secrets/deep/token.txt');
    await ws.file('public/readme.txt', 'nothing to hide\n');
    await ws.link('s', 'secrets');
  });

  const rules = [{ deny: '*', path: 'secrets/**' }] as const;

  it('search_files, list_dir and find_files through the link `s` reveal nothing of secrets/', async () => {
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', rules: [...rules] });
    harness = run.harness;
    const results = [
      await run.call('search_files', { pattern: 'SENTINEL', path: 's' }),
      await run.call('list_dir', { path: 's', depth: 3 }),
      await run.call('find_files', { pattern: '**/*', path: 's' }),
    ];
    for (const result of results) {
      expect(visible(result)).not.toContain(ws.marker);
      expect(visible(result)).not.toMatch(/key\.txt|token\.txt/);
    }
    expect(visible(await run.call('read_file', { path: 's/key.txt' }))).not.toContain(ws.marker);
  });

  it('a reading tool over a directory that holds secrets/ (the root, by default) leaves the secrets out', async () => {
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', rules: [...rules] });
    harness = run.harness;
    const search = await run.call('search_files', { pattern: 'SENTINEL|nothing' });
    expect(search.ok).toBe(true);
    expect(search.content).toContain('public/readme.txt');
    expect(visible(search)).not.toContain(ws.marker);
    const find = await run.call('find_files', { pattern: '**/*.txt' });
    expect(find.content).toContain('public/readme.txt');
    expect(find.content).not.toMatch(/key\.txt|token\.txt/);
    const list = await run.call('list_dir', { path: '.', depth: 4 });
    expect(list.content).toContain('public/readme.txt');
    expect(list.content).not.toMatch(/key\.txt|token\.txt/);
  });
});

describe('bypass 2: a link swapped while the person is asked cannot redirect the approved write', () => {
  beforeEach(async () => {
    await ws.file('.env', 'API_KEY=original\n');
    await ws.file('notes.txt', 'notes\n');
    await ws.link('link.txt', 'notes.txt');
  });

  it('in ask mode: the write approved for link.txt -> notes.txt is refused once link.txt leads to .env', async () => {
    const approver: Approver = async () => {
      await ws.relink('link.txt', '.env');
      return { decision: 'allow' };
    };
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', rules: [{ deny: 'write_file', path: '.env' }], approver });
    harness = run.harness;
    const result = await run.call('write_file', { path: 'link.txt', content: 'API_KEY=stolen\n' });
    expect(result.ok).toBe(false);
    expect(await ws.read('.env')).toBe('API_KEY=original\n');
    expect(await ws.read('notes.txt')).toBe('notes\n');
  });

  it('in every mode: with no prompt at all (allow-all-unsafe), a swap after the policy decided is refused', async () => {
    harness = createHarness();
    await harness.use(fsTools({ root: ws.root, write: true }));
    await harness.use(safety({ mode: 'allow-all-unsafe', rules: [{ deny: 'write_file', path: '.env' }] }));
    await harness.use(afterGuards(() => ws.relink('link.txt', '.env')));
    const result = await harness.executeToolCall({ id: 'swap_1', name: 'write_file', arguments: { path: 'link.txt', content: 'API_KEY=stolen\n' } });
    expect(result.ok).toBe(false);
    expect(await ws.read('.env')).toBe('API_KEY=original\n');
  });

  it('a directory link swapped during the prompt cannot send edit_file to a denied file', async () => {
    await ws.file('safe/config.txt', 'mode=safe\n');
    await ws.file('secret/config.txt', 'mode=secret\n');
    await ws.link('cfg', 'safe');
    const approver: Approver = async () => {
      await ws.relink('cfg', 'secret');
      return { decision: 'allow' };
    };
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', rules: [{ deny: '*', path: 'secret/**' }], approver });
    harness = run.harness;
    const result = await run.call('edit_file', { path: 'cfg/config.txt', old_string: 'mode=', new_string: 'mode=pwned-' });
    expect(result.ok).toBe(false);
    expect(await ws.read('secret/config.txt')).toBe('mode=secret\n');
  });
});

describe('bypass 4: a session grant belongs to one workspace root and one harness', () => {
  it('"allow for this session" on src/** in one workspace does not allow src/** of the next workspace', async () => {
    const second = await makeFsWorkspace();
    others.push(second);
    harness = createHarness();
    const unloadFirst = await harness.use(fsTools({ root: ws.root, write: true }));
    const asked: string[] = [];
    await harness.use(
      safety({
        mode: 'ask',
        approver: (request) => {
          asked.push(String(request.arguments.path));
          return asked.length === 1 ? { decision: 'allow', scope: 'session' } : { decision: 'deny' };
        },
      }),
    );
    const first = await harness.executeToolCall({ id: 'g1', name: 'write_file', arguments: { path: 'src/a.txt', content: 'one' } });
    expect(first.ok).toBe(true);
    await unloadFirst();
    await harness.use(fsTools({ root: second.root, write: true }));
    const next = await harness.executeToolCall({ id: 'g2', name: 'write_file', arguments: { path: 'src/b.txt', content: 'two' } });
    expect(asked).toEqual(['src/a.txt', 'src/b.txt']);
    expect(next.ok).toBe(false);
    expect(await second.read('src/b.txt')).toBeUndefined();
  });

  it('one safety plugin object loaded in two harnesses keeps their grants apart', async () => {
    const plugin = safety({ mode: 'ask', approver: answers({ decision: 'allow', scope: 'session' }) });
    harness = createHarness();
    await harness.use(fsTools({ root: ws.root, write: true }));
    await harness.use(plugin);
    expect((await harness.executeToolCall({ id: 'h1', name: 'write_file', arguments: { path: 'src/a.txt', content: 'one' } })).ok).toBe(true);
    const other = createHarness();
    try {
      await other.use(fsTools({ root: ws.root, write: true }));
      await other.use(plugin);
      // The approver has no answer left: a carried-over grant would have allowed without asking.
      const result = await other.executeToolCall({ id: 'h2', name: 'write_file', arguments: { path: 'src/b.txt', content: 'two' } });
      expect(result.ok).toBe(false);
      expect(await ws.read('src/b.txt')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('bypass 5: patterns are normalised like paths (Unicode)', () => {
  const decomposed = 'cafe\u0301'; // "café" as macOS gives file names
  const composed = 'caf\u00e9';

  it('a deny pattern pasted in decomposed form denies the composed path', async () => {
    const run = await fsSafetyHarness(ws.root, { mode: 'allow-all-unsafe', rules: [{ deny: 'write_file', path: `${decomposed}.txt` }] });
    harness = run.harness;
    const result = await run.call('write_file', { path: `${composed}.txt`, content: 'x' });
    expect(result.ok).toBe(false);
    expect(await ws.read(`${composed}.txt`)).toBeUndefined();
  });

  it('a decomposed directory pattern hides a composed directory from reading tools', async () => {
    await ws.secret(`${composed}/menu.txt`);
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', rules: [{ deny: '*', path: `${decomposed}/**` }] });
    harness = run.harness;
    expect(visible(await run.call('read_file', { path: `${composed}/menu.txt` }))).not.toContain(ws.marker);
    expect(visible(await run.call('search_files', { pattern: 'SENTINEL' }))).not.toContain(ws.marker);
  });
});

describe('the wider protected list', () => {
  const files = ['package.json', 'packages/app/package.json', '.github/workflows/ci.yml', '.npmrc', '.devcontainer/devcontainer.json', '.pre-commit-config.yaml', 'team.code-workspace'];

  it.each(files)('a write to %s asks even in allow-all-unsafe, and without an approver is denied', async (file) => {
    await ws.file(file, 'original\n');
    const run = await fsSafetyHarness(ws.root, { mode: 'allow-all-unsafe' });
    harness = run.harness;
    const result = await run.call('write_file', { path: file, content: 'changed\n' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('DENIED');
    expect(await ws.read(file)).toBe('original\n');
  });

  it('reading them still runs', async () => {
    await ws.file('package.json', '{}\n');
    const run = await fsSafetyHarness(ws.root, { mode: 'allow-all-unsafe' });
    harness = run.harness;
    expect((await run.call('read_file', { path: 'package.json' })).ok).toBe(true);
  });
});

describe('bypass 6: standard input closing during a prompt denies the call at once', () => {
  class Keyboard extends PassThrough {
    readonly isTTY = true;
    setRawMode(): this {
      return this;
    }
  }
  class Screen extends PassThrough {
    readonly isTTY = true;
    readonly columns = 120;
    readonly rows = 40;
    text = '';
    constructor() {
      super();
      this.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
    }
  }

  it('the call is DENIED well before the approval timeout, and nothing is written', async () => {
    const input = new Keyboard();
    const output = new Screen();
    const run = await fsSafetyHarness(ws.root, { mode: 'ask', approver: terminalApprover({ input, output }) }, { approvalTimeoutMs: 60_000 });
    harness = run.harness;
    const pending = run.call('write_file', { path: 'notes.txt', content: 'unapproved' });
    for (let waited = 0; !output.text.includes('Allow once'); waited += 10) {
      if (waited > 5000) throw new Error('the prompt never showed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const closedAt = Date.now();
    input.end();
    const result = await pending;
    expect(Date.now() - closedAt).toBeLessThan(2000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('DENIED');
    expect(await ws.read('notes.txt')).toBeUndefined();
  });
});
