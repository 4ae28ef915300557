import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * A fake file system tree in a fresh temporary directory, shaped like the catalogue's setup
 * (`WS=/home/dev/proj`): `base` stands for `/`, so every `..` a test uses stays inside the
 * temporary directory. Sentinel files outside the workspace hold `marker`; no result may ever
 * contain it, and `verify()` checks that nothing outside the workspace changed.
 */
export interface SentinelFixture {
  /** The temporary directory, canonical: the fake `/`. */
  readonly base: string;
  /** `base/home/dev`: the fake home directory, outside the workspace. */
  readonly home: string;
  /** `base/home/dev/proj`: the workspace root. */
  readonly root: string;
  /** Unique text in every sentinel file. */
  readonly marker: string;
  /** Absolute path of a path inside the workspace. */
  inRoot(relative: string): string;
  /** Creates a file inside the workspace (parents too). */
  file(relative: string, content: string | Uint8Array): Promise<string>;
  /** Creates `relative` inside the workspace as a symbolic link to `target` (verbatim). */
  link(relative: string, target: string): Promise<string>;
  /** Creates an outside file that is not a sentinel (for hard-link reads); `verify` ignores its content. */
  outsideFile(relativeToBase: string, content: string): Promise<string>;
  /** Throws unless every sentinel is byte-identical and nothing was created or removed outside the workspace. */
  verify(): Promise<void>;
  /** Removes everything. */
  cleanup(): Promise<void>;
}

/** Sentinels, relative to `base`. */
const SENTINELS = [
  'etc/passwd',
  'etc/ssl/cert.pem',
  'home/dev/secret.txt',
  'home/dev/.bashrc',
  'home/dev/.ssh/id_ed25519',
  'home/dev/.config/app/settings.json',
  'home/dev/.aws/credentials',
  'home/dev/proj_evil/notes.txt',
  'home/dev/proj_evil/x.txt',
  'home/dev/PROJ_evil/x',
  'home/dev/elsewhere/.git/config',
  'home/dev/elsewhere/.git/hooks/pre-commit',
];

/** Builds the tree. The caller must `cleanup()`. */
export async function createSentinelFixture(): Promise<SentinelFixture> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'weir-tools-fs-')));
  const home = path.join(base, 'home/dev');
  const root = path.join(home, 'proj');
  const marker = `SENTINEL-${randomBytes(12).toString('hex')}`;
  const contents = new Map<string, string>();
  const ignored = new Set<string>();
  await mkdir(root, { recursive: true });
  for (const relative of SENTINELS) {
    const absolute = path.join(base, relative);
    await mkdir(path.dirname(absolute), { recursive: true });
    const content = `${marker} ${relative}\n`;
    await writeFile(absolute, content);
    contents.set(absolute, content);
  }

  const snapshot = async (): Promise<string[]> => {
    const out: string[] = [];
    const walk = async (directory: string): Promise<void> => {
      for (const entry of await readdir(directory, { withFileTypes: true })) {
        const absolute = path.join(directory, entry.name);
        if (absolute === root) continue;
        const info = await lstat(absolute);
        out.push(`${absolute}|${entry.isDirectory() ? 'dir' : entry.isSymbolicLink() ? 'link' : 'file'}|${ignored.has(absolute) ? '' : info.mtimeMs}`);
        if (entry.isDirectory()) await walk(absolute);
      }
    };
    await walk(base);
    return out.sort();
  };
  let before: string[] | undefined;

  const fixture: SentinelFixture = {
    base,
    home,
    root,
    marker,
    inRoot: (relative) => path.join(root, relative),
    async file(relative, content) {
      const absolute = path.join(root, relative);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      return absolute;
    },
    async link(relative, target) {
      const absolute = path.join(root, relative);
      await mkdir(path.dirname(absolute), { recursive: true });
      await symlink(target, absolute);
      return absolute;
    },
    async outsideFile(relativeToBase, content) {
      const absolute = path.join(base, relativeToBase);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      ignored.add(absolute);
      before = await snapshot();
      return absolute;
    },
    async verify() {
      for (const [absolute, content] of contents) {
        const now = await readFile(absolute, 'utf8');
        if (now !== content) throw new Error(`sentinel ${path.relative(base, absolute)} was modified`);
      }
      const now = await snapshot();
      const expected = before ?? now;
      const added = now.filter((line) => !expected.includes(line));
      const removed = expected.filter((line) => !now.includes(line));
      if (added.length > 0 || removed.length > 0) {
        throw new Error(`outside the workspace changed: +${JSON.stringify(added)} -${JSON.stringify(removed)}`);
      }
    },
    async cleanup() {
      await rm(base, { recursive: true, force: true });
    },
  };
  before = await snapshot();
  return fixture;
}
