import { readFile } from 'node:fs/promises';
import type { ApprovalRequest } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('argument aliases (file_path, old_string/oldString, replace_all, start_line)', () => {
  const ws = useWorkspace();

  it('read_file takes file_path, start_line and end_line', async () => {
    await ws.fx.file('a.txt', '1\n2\n3\n4\n');
    const h = await ws.harness();
    const result = await h.call('read_file', { file_path: 'a.txt', start_line: 2, end_line: 3 });
    expect(result).toMatchObject({ ok: true, content: '     2\t2\n     3\t3\n[lines 2-3 of 4 of a.txt. Continue with offset=4.]' });
  });

  it('edit_file takes file_path, oldString, newString and replaceAll; write_file takes file_path', async () => {
    await ws.fx.file('b.txt', 'x x\n');
    const h = await ws.harness();
    await h.call('read_file', { file_path: 'b.txt' });
    expect(await h.call('edit_file', { file_path: 'b.txt', oldString: 'x', newString: 'y', replaceAll: true })).toMatchObject({ ok: true });
    expect(await readFile(ws.fx.inRoot('b.txt'), 'utf8')).toBe('y y\n');
    expect(await h.call('write_file', { file_path: 'c.txt', content: 'c\n' })).toMatchObject({ ok: true, content: 'Created c.txt (2 bytes).' });
  });

  it('refuses an alias that disagrees with its canonical name, and a call with neither, naming the argument', async () => {
    await ws.fx.file('d.txt', 'd\n');
    const h = await ws.harness();
    const both = await h.call('read_file', { path: 'd.txt', file_path: 'other.txt' });
    expect(both.ok ? undefined : both.error).toMatchObject({ code: 'BLOCKED', message: expect.stringContaining('file_path is another name for path') });
    const neither = await h.call('read_file', {});
    expect(neither.ok ? undefined : neither.error).toMatchObject({ code: 'INVALID_ARGUMENTS', message: expect.stringContaining('read_file needs path') });
    const unknown = await h.call('read_file', { filePath: 'd.txt' });
    expect(unknown.ok ? undefined : unknown.error).toMatchObject({ code: 'INVALID_ARGUMENTS', message: expect.stringContaining('filePath') });
    expect(await h.call('read_file', { path: 'd.txt', file_path: 'd.txt' })).toMatchObject({ ok: true });
  });

  it('guards and approvers only ever see canonical names (the @weir/safety .env deny is tested in packages/safety)', async () => {
    const seen: ApprovalRequest[] = [];
    // The protected-path guard's approval request shows `path`, not `file_path`.
    const h = await ws.harness({ approver: (request) => (seen.push(request), { decision: 'deny' }) });
    await h.call('write_file', { file_path: '.vscode/settings.json', content: '{}' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.arguments).toEqual({ path: '.vscode/settings.json', content: '{}' });
  });
});
