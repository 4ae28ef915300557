import { chmod, lstat, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

describe('write_file', () => {
  const ws = useWorkspace();

  it('creates a file and its missing parents inside the root', async () => {
    const h = await ws.harness();
    const result = await h.call('write_file', { path: 'a/b/c.txt', content: 'héllo\n' });
    expect(result).toMatchObject({ ok: true, content: 'Created a/b/c.txt (7 bytes).' });
    expect(result.ok && result.value).toEqual({ path: 'a/b/c.txt', bytes: 7, created: true });
    expect(await readFile(ws.fx.inRoot('a/b/c.txt'), 'utf8')).toBe('héllo\n');
  });

  it('replaces a file atomically, keeping its permissions and leaving no temporary file', async () => {
    await ws.fx.file('run.sh', 'old\n');
    await chmod(ws.fx.inRoot('run.sh'), 0o751);
    const before = await stat(ws.fx.inRoot('run.sh'));
    const h = await ws.harness();
    await h.call('read_file', { path: 'run.sh' });
    const result = await h.call('write_file', { path: 'run.sh', content: '' });
    expect(result).toMatchObject({ ok: true, content: 'Replaced run.sh (0 bytes).' });
    const after = await stat(ws.fx.inRoot('run.sh'));
    expect(after.mode & 0o777).toBe(0o751);
    // A new inode: the old one was never written in place.
    expect(after.ino).not.toBe(before.ino);
    expect(await readdir(ws.fx.root)).toEqual(['run.sh']);
  });

  it('writes through a link that stays inside, keeping the link', async () => {
    await ws.fx.file('real.txt', 'old');
    await ws.fx.link('alias.txt', 'real.txt');
    const h = await ws.harness();
    await h.call('read_file', { path: 'real.txt' });
    expect(await h.call('write_file', { path: 'alias.txt', content: 'new' })).toMatchObject({ ok: true, content: 'Replaced real.txt (3 bytes).' });
    expect(await readFile(ws.fx.inRoot('real.txt'), 'utf8')).toBe('new');
    expect((await lstat(ws.fx.inRoot('alias.txt'))).isSymbolicLink()).toBe(true);
  });

  it('refuses a directory, a parent that is a file, and a path ending in "/"', async () => {
    await ws.fx.file('dir/x.txt', '');
    await ws.fx.file('file.txt', '');
    const h = await ws.harness();
    const results = await Promise.all([
      h.call('write_file', { path: 'dir', content: 'x' }),
      h.call('write_file', { path: 'file.txt/x', content: 'x' }),
      h.call('write_file', { path: 'newdir/', content: 'x' }),
      h.call('write_file', { path: '.', content: 'x' }),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['IS_A_DIRECTORY', 'NOT_A_DIRECTORY', 'INVALID_PATH', 'IS_A_DIRECTORY']);
    expect(await readdir(ws.fx.root)).toEqual(['dir', 'file.txt']);
  });

  it('never mixes two concurrent writes of the same file: they run one after the other, both ok', async () => {
    await ws.fx.file('shared.txt', 'start');
    const h = await ws.harness();
    await h.call('read_file', { path: 'shared.txt' });
    const one = 'one\n'.repeat(50_000);
    const two = 'two\n'.repeat(50_000);
    const results = await Promise.all([h.call('write_file', { path: 'shared.txt', content: one }), h.call('write_file', { path: 'shared.txt', content: two })]);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    expect([one, two]).toContain(await readFile(ws.fx.inRoot('shared.txt'), 'utf8'));
    expect((await readdir(ws.fx.root)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to replace a file not read in this session, or changed since it was read (by content), and learns from its own writes', async () => {
    await ws.fx.file('a.txt', 'one\n');
    const h = await ws.harness();
    const unread = await h.call('write_file', { path: 'a.txt', content: 'x' });
    expect(unread.ok ? undefined : unread.error).toMatchObject({ code: 'NOT_READ', message: expect.stringContaining('Read it with read_file first') });
    await h.call('read_file', { path: 'a.txt' });
    // Same size, same modification time: only the content tells.
    const { utimes } = await import('node:fs/promises');
    const before = await stat(ws.fx.inRoot('a.txt'));
    await writeFile(ws.fx.inRoot('a.txt'), 'two\n');
    await utimes(ws.fx.inRoot('a.txt'), before.atime, before.mtime);
    const stale = await h.call('write_file', { path: 'a.txt', content: 'x' });
    expect(stale.ok ? undefined : stale.error).toMatchObject({ code: 'STALE_READ', message: expect.stringContaining('Read it again') });
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('two\n');
    await h.call('read_file', { path: 'a.txt' });
    expect((await h.call('write_file', { path: 'a.txt', content: 'three\n' })).ok).toBe(true);
    expect((await h.call('write_file', { path: 'a.txt', content: 'four\n' })).ok).toBe(true);
    expect((await h.call('edit_file', { path: 'a.txt', old_string: 'four', new_string: 'five' })).ok).toBe(true);
    expect(await readFile(ws.fx.inRoot('a.txt'), 'utf8')).toBe('five\n');
  });

  it('keeps CRLF line endings, the byte-order mark and Latin-1 of the file it replaces', async () => {
    await ws.fx.file('win.txt', '\ufeffa\r\nb\r\n');
    await ws.fx.file('latin.txt', Buffer.from('caf\xe9\n', 'latin1'));
    const h = await ws.harness();
    await h.call('read_file', { path: 'win.txt' });
    await h.call('read_file', { path: 'latin.txt' });
    expect(await h.call('write_file', { path: 'win.txt', content: 'x\ny\n' })).toMatchObject({ ok: true, content: 'Replaced win.txt (9 bytes; kept a UTF-8 byte-order mark, CRLF line endings).' });
    expect(await readFile(ws.fx.inRoot('win.txt'), 'utf8')).toBe('\ufeffx\r\ny\r\n');
    expect(await h.call('write_file', { path: 'latin.txt', content: 'naïve\n' })).toMatchObject({ ok: true, content: 'Replaced latin.txt (6 bytes; kept Latin-1 (ISO-8859-1) text).' });
    expect(await readFile(ws.fx.inRoot('latin.txt'))).toEqual(Buffer.from('na\xefve\n', 'latin1'));
    const euro = await h.call('write_file', { path: 'latin.txt', content: '5 €\n' });
    expect(euro.ok ? undefined : euro.error).toMatchObject({ code: 'UNENCODABLE', message: expect.stringContaining('U+20AC') });
    expect(await readFile(ws.fx.inRoot('latin.txt'))).toEqual(Buffer.from('na\xefve\n', 'latin1'));
  });

  it('is not registered without write: true', async () => {
    const h = await ws.harness({ write: false });
    const result = await h.call('write_file', { path: 'x', content: 'x' });
    expect(result.ok ? undefined : result.error.code).toBe('TOOL_NOT_FOUND');
  });
});
