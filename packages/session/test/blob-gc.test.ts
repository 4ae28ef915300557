import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionEntry } from '@weir/core';
import { createFileSessionStore } from '../src/index.js';
import { nodeSessionFileSystem, type SessionFileSystem } from '../src/session-file-system.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const sha = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');
const image = (data: string): SessionEntry => ({ type: 'message', message: { role: 'user', content: 'look', parts: [{ type: 'image', data, mediaType: 'image/png' }] } });

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'weir-blob-gc-'));
  dirs.push(dir);
  return dir;
};
const blobsOf = async (dir: string) => (await readdir(join(dir, 'blobs'))).sort();
/** Makes every blob look two hours old: past the collector's grace period. */
const age = async (dir: string) => {
  const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
  for (const name of await readdir(join(dir, 'blobs'))) await utimes(join(dir, 'blobs', name), past, past);
};

/** A real file system that stops once at `step` (a blob's link, or its touch) until `release()` is called. */
function pausingFs(step: 'link' | 'touch') {
  let reached!: () => void;
  let release!: () => void;
  const atStep = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  let armed = true;
  const pause = async () => {
    if (!armed) return;
    armed = false;
    reached();
    await gate;
  };
  const fs: SessionFileSystem = {
    ...nodeSessionFileSystem,
    link: async (from, to) => {
      await nodeSessionFileSystem.link(from, to);
      if (step === 'link' && to.includes(join('blobs', ''))) await pause();
    },
    touch: async (path) => {
      await nodeSessionFileSystem.touch(path);
      if (step === 'touch') await pause();
    },
  };
  return { fs, atStep, release: () => release() };
}

describe('image blobs are collected', () => {
  it('deleting a session removes the images only it named, and keeps those another session names', async () => {
    const dir = await tempDir();
    const store = createFileSessionStore(dir);
    const only = await store.create();
    await only.append(image(PNG), { sync: true });
    await only.append(image(GIF), { sync: true });
    await only.close();
    const other = await store.create();
    await other.append(image(GIF), { sync: true });
    await other.close();
    await age(dir);

    expect(await store.delete!(only.id)).toEqual({ removed: 1, kept: 1 });
    expect(await blobsOf(dir)).toEqual([sha(GIF)]);
    expect((await store.read(other.id))[1]).toMatchObject(image(GIF));
    await store.delete!(other.id);
    expect(await blobsOf(dir)).toEqual([]);
    expect((await readdir(dir)).filter((name) => name !== 'blobs')).toEqual([]);
  });

  it('collectGarbage removes blobs no log names, keeps young ones, and keeps those a damaged log still names', async () => {
    const dir = await tempDir();
    const store = createFileSessionStore(dir);
    const session = await store.create();
    await session.append(image(PNG), { sync: true });
    await session.close();
    const orphan = await store.create();
    await orphan.append(image(GIF), { sync: true });
    await orphan.close();
    // The log went some other way (removed by hand): its image is named nowhere now, and still young.
    await rm(join(dir, `${orphan.id}.jsonl`));
    expect(await store.collectGarbage!()).toEqual({ removed: 0, kept: 2 });
    await age(dir);
    expect(await store.collectGarbage!()).toEqual({ removed: 1, kept: 1 });
    expect(await blobsOf(dir)).toEqual([sha(PNG)]);
  });

  it('an append in flight keeps its new image: the blob is written, the collector runs, then the line', async () => {
    const dir = await tempDir();
    const { fs, atStep, release } = pausingFs('link');
    const session = await createFileSessionStore(dir, { fs }).create();
    const appended = session.append(image(PNG), { sync: true });
    await atStep;
    // The blob is in place and no line names it yet.
    expect(await createFileSessionStore(dir).collectGarbage!()).toEqual({ removed: 0, kept: 1 });
    release();
    await appended;
    await session.close();
    expect((await createFileSessionStore(dir).read(session.id))[1]).toMatchObject(image(PNG));
  });

  it('without the grace period the same race would lose the image (what the test above guards)', async () => {
    const dir = await tempDir();
    const { fs, atStep, release } = pausingFs('link');
    const session = await createFileSessionStore(dir, { fs }).create();
    const appended = session.append(image(PNG), { sync: true });
    await atStep;
    expect(await createFileSessionStore(dir, { blobGraceMs: 0 }).collectGarbage!()).toEqual({ removed: 1, kept: 0 });
    release();
    await appended;
    await session.close();
    const [, record] = await createFileSessionStore(dir).read(session.id);
    expect(JSON.stringify(record)).toContain('not available');
  });

  it('an append that reuses an old blob touches it first, so a collector running meanwhile keeps it', async () => {
    const dir = await tempDir();
    const first = await createFileSessionStore(dir).create();
    await first.append(image(PNG), { sync: true });
    await first.close();
    // The blob is old and, with its log gone, named by nobody: only the touch can save it.
    await rm(join(dir, `${first.id}.jsonl`));
    await age(dir);
    const { fs, atStep, release } = pausingFs('touch');
    const second = await createFileSessionStore(dir, { fs }).create();
    const appended = second.append(image(PNG), { sync: true });
    await atStep;
    expect(await createFileSessionStore(dir).collectGarbage!()).toEqual({ removed: 0, kept: 1 });
    release();
    await appended;
    await second.close();
    expect((await createFileSessionStore(dir).read(second.id))[1]).toMatchObject(image(PNG));
  });
});
