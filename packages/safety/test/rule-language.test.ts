// The rule language through the real file tools in real temporary workspaces: rules by file
// action, tier and server; path arguments judged on their defaults, nested places and arrays;
// paths that cannot be checked fail closed. The oracle is the sentinel: a denied file's marker
// never reaches a result, and a protected file's bytes never change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, definePlugin, defineTool, type Harness, type ToolResult } from '@weir/core';
import { fsTools } from '@weir/tools-fs';
import { safety, type PermissionRule, type SafetyMode } from '@weir/safety';
import { makeFsWorkspace, visible, type FsWorkspace } from './support/fs-workspace.js';

let ws: FsWorkspace;
let harness: Harness | undefined;
let counter = 0;
const ran: string[] = [];

beforeEach(async () => {
  ws = await makeFsWorkspace();
  ran.length = 0;
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await ws.remove();
});

/** A tool another plugin brings from a server, and one with nested and array path arguments. */
const extraTools = definePlugin({
  name: 'test-bridge',
  setup(ctx) {
    ctx.tools.register(
      defineTool({
        name: 'github__create_issue',
        description: 'Creates an issue (test double of an MCP tool).',
        tier: 'write',
        parameters: { type: 'object', properties: { title: { type: 'string' } } },
        execute: ({ title }) => (ran.push(`issue ${String(title)}`), 'created'),
      }),
      { server: 'github' },
    );
    ctx.tools.register(
      defineTool({
        name: 'bundle',
        description: 'Reads several files (test tool with nested and array path arguments).',
        tier: 'read-only',
        files: { action: 'read', paths: ['target.file', 'extra[]', 'edits[].file_path'] },
        parameters: { type: 'object' },
        execute: (args) => (ran.push(`bundle ${JSON.stringify(args)}`), 'bundled'),
      }),
    );
  },
});

async function setup(mode: SafetyMode, rules: PermissionRule[]) {
  harness = createHarness();
  await harness.use(fsTools({ root: ws.root, write: true }));
  await harness.use(extraTools);
  await harness.use(safety({ mode, rules }));
}

const call = (name: string, args: Record<string, unknown>) => harness!.executeToolCall({ id: `r_${(counter += 1)}`, name, arguments: args });

function code(result: ToolResult): string {
  return result.ok ? 'ok' : result.error.code;
}

describe('{ deny: { action: "read", path } } holds for every tool that reads or lists', () => {
  beforeEach(async () => {
    await ws.secret('.env');
    await ws.file('src/app.ts', 'export const app = 1;\n');
  });

  it('read_file, search_files (named, or over the root by default), list_dir and find_files never show it', async () => {
    await setup('allow-all-unsafe', [{ deny: { action: 'read', path: '.env' } }]);
    expect(code(await call('read_file', { path: '.env' }))).toBe('DENIED');
    expect(code(await call('search_files', { pattern: 'SENTINEL', path: '.env' }))).toBe('DENIED');
    const search = await call('search_files', { pattern: 'SENTINEL|app' });
    expect(search.ok).toBe(true);
    expect(search.content).toContain('src/app.ts');
    const list = await call('list_dir', { depth: 3 });
    const find = await call('find_files', { pattern: '**/*' });
    for (const result of [search, list, find]) {
      expect(visible(result)).not.toContain(ws.marker);
      expect(result.content).not.toMatch(/^\.env$/m);
    }
    expect(list.content).toContain('src/app.ts');
  });

  it('a tool that names its path file_path is covered by its declaration, not its argument name', async () => {
    await setup('allow-all-unsafe', [{ deny: { action: 'read', path: '.env' } }]);
    const result = await call('bundle', { edits: [{ file_path: 'src/app.ts' }, { file_path: './.env' }] });
    expect(code(result)).toBe('DENIED');
    expect(ran).toEqual([]);
  });
});

describe('{ ask: { action: "edit", path } } and today\'s rules', () => {
  beforeEach(async () => {
    await ws.file('.env', 'KEY=original\n');
    await ws.file('src/a.ts', 'a\n');
  });

  it('every tool that changes files asks (denied without an approver), even in allow-all-unsafe', async () => {
    await setup('allow-all-unsafe', [{ ask: { action: 'edit', path: 'src/**' } }]);
    expect(code(await call('write_file', { path: 'src/b.ts', content: 'b' }))).toBe('DENIED');
    expect(code(await call('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'changed' }))).toBe('DENIED');
    expect(code(await call('read_file', { path: 'src/a.ts' }))).toBe('ok');
    expect(code(await call('write_file', { path: 'notes.txt', content: 'n' }))).toBe('ok');
    expect([await ws.read('src/b.ts'), await ws.read('src/a.ts'), await ws.read('notes.txt')]).toEqual([undefined, 'a\n', 'n']);
  });

  it('{ deny: "write_file", path } keeps its meaning; { deny: { action: "edit" } } no longer leaves edit_file free', async () => {
    await setup('allow-all-unsafe', [{ deny: 'write_file', path: '.env' }]);
    expect(code(await call('write_file', { path: '.env', content: 'KEY=stolen\n' }))).toBe('DENIED');
    // edit_file changes only a file read in this session.
    expect(code(await call('read_file', { path: '.env' }))).toBe('ok');
    expect(code(await call('edit_file', { path: '.env', old_string: 'original', new_string: 'edited' }))).toBe('ok');
    expect(await ws.read('.env')).toBe('KEY=edited\n');
    await harness!.close();
    await setup('allow-all-unsafe', [{ deny: { action: 'edit', path: '.env' } }]);
    expect(code(await call('write_file', { path: '.env', content: 'KEY=stolen\n' }))).toBe('DENIED');
    expect(code(await call('edit_file', { path: '.env', old_string: 'edited', new_string: 'stolen' }))).toBe('DENIED');
    expect(await ws.read('.env')).toBe('KEY=edited\n');
  });
});

describe('servers and tiers', () => {
  it('{ ask: { server: "github" } } covers every tool of that server, and no other', async () => {
    await setup('allow-all-unsafe', [{ ask: { server: 'github' } }]);
    expect(code(await call('github__create_issue', { title: 'x' }))).toBe('DENIED');
    expect(code(await call('write_file', { path: 'a.txt', content: 'a' }))).toBe('ok');
    expect(ran).toEqual([]);
  });

  it('{ deny: { tier: "write" } } stops every write tool', async () => {
    await setup('allow-all-unsafe', [{ deny: { tier: 'write' } }]);
    expect(code(await call('write_file', { path: 'a.txt', content: 'a' }))).toBe('DENIED');
    expect(code(await call('github__create_issue', { title: 'x' }))).toBe('DENIED');
    expect(code(await call('list_dir', {}))).toBe('ok');
    expect(await ws.read('a.txt')).toBeUndefined();
  });
});

describe('path arguments: defaults, nested places, arrays, and what cannot be checked', () => {
  beforeEach(async () => {
    await ws.file('ok.txt', 'fine\n');
    await ws.secret('secret/key.txt');
  });

  it('an omitted path is judged on its default: search_files with no path is a search of "."', async () => {
    await setup('ask', [{ ask: { tool: 'search_files', path: '.' } }]);
    expect(code(await call('search_files', { pattern: 'fine' }))).toBe('DENIED');
    expect(code(await call('search_files', { pattern: 'fine', path: 'ok.txt' }))).toBe('ok');
  });

  it('nested and array places are checked, each element', async () => {
    await setup('ask', [{ deny: { action: 'read', path: 'secret/**' } }]);
    expect(code(await call('bundle', { target: { file: 'ok.txt' }, extra: ['ok.txt'], edits: [] }))).toBe('ok');
    expect(code(await call('bundle', { target: { file: 'secret/key.txt' }, extra: [], edits: [] }))).toBe('DENIED');
    expect(code(await call('bundle', { target: { file: 'ok.txt' }, extra: ['ok.txt', 'secret/key.txt'], edits: [] }))).toBe('DENIED');
  });

  it('a declared path that is missing or not a string fails closed', async () => {
    await setup('ask', [{ deny: { action: 'read', path: 'secret/**' } }]);
    expect(code(await call('bundle', { extra: [], edits: [] }))).toBe('DENIED');
    expect(code(await call('bundle', { target: { file: 42 }, extra: [], edits: [] }))).toBe('DENIED');
    expect(code(await call('bundle', { target: { file: 'ok.txt' }, extra: [{ path: 'secret/key.txt' }], edits: [] }))).toBe('DENIED');
    expect(ran).toEqual([]);
  });
});
