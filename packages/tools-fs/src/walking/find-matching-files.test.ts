import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkGlobPattern, findMatchingFiles } from './find-matching-files.js';
import { smallDeps } from '../../test/helpers/small-deps.js';
import type { FsToolDeps } from '../tools/fs-tool-deps.js';
import { Workspace } from '../confinement/workspace.js';

describe('checkGlobPattern', () => {
  it.each([['**/*.ts'], ['src/**'], ['*.{json,yaml}'], ['+(a|b).txt'], ['.github/**'], ['a..b/*'], ['x/..y']])('accepts %j', (pattern) => {
    expect(checkGlobPattern(pattern)).toBeUndefined();
  });

  it.each([[''], ['  '], [7], ['/etc/*'], ['../**/*.pem'], ['**/../../*'], ['a/..'], ['{..,src}/*'], ['{src,..}/x'], ['~/x'], ['src\\*.ts'], ['a\u0000'], ['x'.repeat(1001)]])(
    'refuses %j with INVALID_PATTERN',
    (pattern) => {
      expect(checkGlobPattern(pattern)).toMatchObject({ ok: false, code: 'INVALID_PATTERN' });
    },
  );
});

describe('findMatchingFiles', () => {
  let base: string;
  let deps: FsToolDeps;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-glob-')));
    for (let index = 0; index < 20; index += 1) await writeFile(path.join(base, `f${String(index).padStart(2, '0')}.txt`), '');
    await mkdir(path.join(base, 'sub'));
    await writeFile(path.join(base, 'sub/g.txt'), '');
    const workspace = await Workspace.create(base);
    deps = smallDeps(workspace);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('crawls through the validator and returns sorted paths relative to the root', async () => {
    const directory = await deps.workspace.locateOrThrow('.', 'list');
    const found = await findMatchingFiles(deps, directory, '**/g.txt', new AbortController().signal);
    expect(found).toEqual({ paths: ['sub/g.txt'], incomplete: false });
  });

  it('stops a crawl at its cap and says the result is incomplete, without failing', async () => {
    const directory = await deps.workspace.locateOrThrow('.', 'list');
    const capped = { ...deps, limits: { ...deps.limits, maxCrawlEntries: 5 } };
    const found = await findMatchingFiles(capped, directory, '**/*.txt', new AbortController().signal);
    expect(found.incomplete).toBe(true);
    const partial = { ...deps, limits: { ...deps.limits, maxDirectoryNames: 3 } };
    expect((await findMatchingFiles(partial, directory, '*.txt', new AbortController().signal)).incomplete).toBe(true);
  });

  it('rejects with the reason when the caller aborts', async () => {
    const directory = await deps.workspace.locateOrThrow('.', 'list');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(findMatchingFiles(deps, directory, '**/*', controller.signal)).rejects.toThrow('stop');
  });
});
