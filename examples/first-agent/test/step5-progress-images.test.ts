import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExample } from './support/run-example.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-step5-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('examples/first-agent step5-progress-images', () => {
  it('prints a progress line per file while the slow tool runs, then the model sees the image read_file returned', async () => {
    const run = await runExample('step5-progress-images.ts');
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      '[user] run tool index_workspace',
      // Each report comes while the tool runs: before its result, in order.
      '[progress:index_workspace] 1/4 docs/readme.txt',
      '[progress:index_workspace] 2/4 logo.png',
      '[progress:index_workspace] 3/4 notes.txt',
      '[progress:index_workspace] 4/4 todo.md',
      '[tool:index_workspace] -> ok',
      expect.stringMatching(/^\[assistant\] Tool index_workspace returned: Indexed 4 files: \d+ words\.$/),
      '[user] read file logo.png',
      '[tool:read_file] -> ok, 1 image',
      '[assistant] Tool read_file returned: logo.png: image/png image, 90 bytes ⏎ I see 1 image (image/png, 90 bytes).',
    ]);
  }, 90_000);

  it('knows an image by its bytes, not its name, in another workspace', async () => {
    // The same 1x1 PNG twice: under a name that hides it, and a ".png" that holds text.
    await writeFile(join(dir, 'picture.dat'), Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
    await writeFile(join(dir, 'fake.png'), 'just words\n');
    const run = await runExample('step5-progress-images.ts', ['--workspace', dir, 'read file picture.dat', 'read file fake.png', '运行工具 index_workspace']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      '[user] read file picture.dat',
      '[tool:read_file] -> ok, 1 image',
      expect.stringMatching(/^\[assistant\] Tool read_file returned: .* ⏎ I see 1 image \(image\/png, 70 bytes\)\.$/),
      '[user] read file fake.png',
      '[tool:read_file] -> ok',
      expect.stringMatching(/^\[assistant\] Tool read_file returned: +1\tjust words$/),
      '[user] 运行工具 index_workspace',
      '[progress:index_workspace] 1/2 fake.png',
      '[progress:index_workspace] 2/2 picture.dat',
      '[tool:index_workspace] -> ok',
      '[assistant] 工具 index_workspace 返回了：Indexed 2 files: 2 words.',
    ]);
  }, 90_000);
});
