// Other projects' data stays beside the clone (shared/fixtures/ next to it), read at test time through
// sharedFixture(): the repository holds no copy of any of its files.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './publishable-packages.js';
import { sharedFixture } from './shared-fixtures.js';

/**
 * Shared files the repository may hold, each with why. openai-compat.json is the fixture set written
 * for this project (synthetic ids, `fixture-model-1`), not data copied from another project.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([['openai-compat.json', 'written for weir, not copied from another project']]);

const shared = sharedFixture('.', 'repo: the check that no shared fixture is copied into the repository');

describe.skipIf(shared === undefined)('shared fixtures', () => {
  it('no file of the shared fixtures is copied into the repository', () => {
    const sharedFiles = new Map<number, string[]>();
    for (const entry of readdirSync(shared!, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      if (ALLOWED.has(relative(shared!, path))) continue;
      const size = statSync(path).size;
      // Tiny files (an empty README, `{}`) say nothing about where a file came from.
      if (size < 64) continue;
      sharedFiles.set(size, [...(sharedFiles.get(size) ?? []), path]);
    }
    const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0').filter((file) => file !== '');
    const copies: string[] = [];
    for (const file of tracked) {
      const path = join(repo, file);
      let size: number;
      try {
        size = statSync(path).size;
      } catch {
        continue; // deleted in the work tree, not committed yet
      }
      const sameSize = sharedFiles.get(size);
      if (sameSize === undefined) continue;
      const hash = digest(path);
      const original = sameSize.find((candidate) => digest(candidate) === hash);
      if (original !== undefined) copies.push(`${file} is a copy of ${relative(shared!, original)}`);
    }
    expect(copies).toEqual([]);
  });
});
