// textSource: the file tools read and write an editor's buffer where it has the file, still
// confined, approved and checked against what was read.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { TextSource } from '../src/index.js';
import { useWorkspace } from './helpers/use-workspace.js';

function buffers(open: Record<string, string>, writes = true): TextSource & { readonly open: Map<string, string>; readonly asked: string[] } {
  const map = new Map(Object.entries(open));
  const asked: string[] = [];
  return {
    open: map,
    asked,
    read: async (path) => {
      asked.push(path);
      return map.get(path);
    },
    write: async (path, text) => {
      if (!writes || !map.has(path)) return false;
      map.set(path, text);
      return true;
    },
  };
}

describe('textSource', () => {
  const ws = useWorkspace();

  it("read_file shows the source's text, and edit_file edits it there, the disk untouched", async () => {
    await ws.fx.file('a.txt', 'one\ntwo\n');
    const source = buffers({});
    const h = await ws.harness({ textSource: source });
    const at = source.asked.length;
    const path = ws.fx.inRoot('a.txt');
    source.open.set(path, 'one\nTWO unsaved\n');
    expect(await h.call('read_file', { path: 'a.txt' })).toMatchObject({ ok: true, content: expect.stringContaining('TWO unsaved') });
    expect(source.asked.slice(at)).toEqual([path]);
    expect(await h.call('edit_file', { path: 'a.txt', old_string: 'TWO unsaved', new_string: 'three' })).toMatchObject({ ok: true });
    expect(source.open.get(path)).toBe('one\nthree\n');
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
    // Its own write counts as read: a second edit needs no read.
    expect(await h.call('write_file', { path: 'a.txt', content: 'all new\n' })).toMatchObject({ ok: true });
    expect(source.open.get(path)).toBe('all new\n');
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses an edit when the source text changed since it was read', async () => {
    await ws.fx.file('a.txt', 'one\n');
    const source = buffers({});
    const h = await ws.harness({ textSource: source });
    const path = ws.fx.inRoot('a.txt');
    source.open.set(path, 'one\n');
    await h.call('read_file', { path: 'a.txt' });
    source.open.set(path, 'one, typed since\n');
    const result = await h.call('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'STALE_READ' });
    expect(source.open.get(path)).toBe('one, typed since\n');
  });

  it('writes the disk when the source declines the write, and a path outside is refused before it is asked', async () => {
    await ws.fx.file('a.txt', 'one\n');
    const source = buffers({}, false);
    const h = await ws.harness({ textSource: source });
    const path = ws.fx.inRoot('a.txt');
    source.open.set(path, 'one\n');
    await h.call('read_file', { path: 'a.txt' });
    expect(await h.call('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' })).toMatchObject({ ok: true });
    expect(await readFile(path, 'utf8')).toBe('two\n');
    const before = source.asked.length;
    expect(await h.call('read_file', { path: '../outside.txt' })).toMatchObject({ ok: false, error: { code: 'PATH_OUTSIDE_WORKSPACE' } });
    expect(source.asked.length).toBe(before);
  });
});
