import { execFileSync } from 'node:child_process';
import { link, mkdir, readFile, rename, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ToolResult } from '@weir/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsError } from '../src/fs-error.js';
import type { OpenStrategy } from '../src/confinement/held-directory.js';
import { Workspace } from '../src/confinement/workspace.js';
import { assertNoMarker, createFsHarness, recordingLogger, type FsHarness, type FsHarnessOptions } from './helpers/fs-harness.js';
import { createSentinelFixture, type SentinelFixture } from './helpers/sentinel-fixture.js';

/**
 * docs/reliability.md section 1.2, one row per catalogue row (1-60), on a real temporary tree shaped
 * like the catalogue's (`base` is `/`, the workspace is `base/home/dev/proj`), with real links,
 * hard links and FIFOs. Every row runs under both open strategies. After every row: the sentinels
 * outside the workspace are byte-identical, nothing outside was created or removed, and no result
 * contains the sentinels' marker.
 */

type ToolName = 'read_file' | 'list_dir' | 'find_files' | 'search_files' | 'write_file' | 'edit_file';

type Expectation =
  | { readonly ok: true; readonly content?: string | RegExp; readonly notContent?: readonly (string | RegExp)[] }
  | { readonly code: string | readonly string[]; readonly message?: RegExp };

interface Step {
  readonly tool: ToolName;
  readonly args: Record<string, unknown>;
  readonly expect: Expectation;
}

interface RowContext {
  readonly fx: SentinelFixture;
  readonly strategy: OpenStrategy;
  /** Loads tools-fs (write enabled unless the row says otherwise) on the fixture's root. */
  harness(options?: FsHarnessOptions): Promise<FsHarness>;
  run(h: FsHarness, steps: readonly Step[]): Promise<void>;
}

interface Row {
  readonly row: number;
  readonly title: string;
  readonly options?: FsHarnessOptions;
  readonly setup?: (fx: SentinelFixture) => Promise<void>;
  readonly steps?: (fx: SentinelFixture) => readonly Step[];
  /** Extra checks after the steps (files unchanged, nothing created...). */
  readonly after?: (fx: SentinelFixture, h: FsHarness) => Promise<void>;
  /** A row that needs more than calls in order (its own harnesses, the validator's internals). */
  readonly custom?: (context: RowContext) => Promise<void>;
}

const refused = (code: string | readonly string[], message?: RegExp): Expectation => ({ code, ...(message ? { message } : {}) });
const read = (p: string, expect: Expectation): Step => ({ tool: 'read_file', args: { path: p }, expect });
const write = (p: string, expect: Expectation, content = 'written by a test\n'): Step => ({ tool: 'write_file', args: { path: p, content }, expect });
const INVALID = refused('INVALID_PATH');
const OUTSIDE = refused('PATH_OUTSIDE_WORKSPACE');

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}

const rows: readonly Row[] = [
  // ---------------------------------------------------------------- A. lexical traversal, absolute paths
  { row: 1, title: 'read ../secret.txt (exists outside)', steps: () => [read('../secret.txt', OUTSIDE)] },
  {
    row: 2,
    title: 'excess .. does not clamp at / into the workspace',
    // Thirty `..` climb past the real `/`, then come down into the fixture's fake /etc/passwd:
    // the catalogue's shape without reading the real /etc/passwd.
    steps: (fx) => [read(`${'../'.repeat(30)}${fx.base.slice(1)}/etc/passwd`, OUTSIDE), read(`${'../'.repeat(30)}${fx.base.slice(1)}/home/dev/proj/src/a.ts`, { ok: true })],
  },
  { row: 3, title: 'src/../../proj_evil/x.txt (sibling dir exists)', steps: () => [read('src/../../proj_evil/x.txt', OUTSIDE)] },
  { row: 4, title: 'absolute path outside', steps: (fx) => [read(`${fx.base}/etc/passwd`, OUTSIDE)] },
  {
    row: 5,
    title: 'sibling directory whose name starts with the root name (CVE-2025-53110 shape)',
    steps: (fx) => [read(`${fx.home}/proj_evil/notes.txt`, OUTSIDE), { tool: 'list_dir', args: { path: `${fx.home}/proj_evil` }, expect: OUTSIDE }],
  },
  {
    row: 6,
    title: 'positive control: an absolute path that normalises inside',
    steps: (fx) => [read(`${fx.root}/../proj/src/a.ts`, { ok: true, content: 'export const a = 1;\n' })],
  },
  { row: 7, title: 'src//..//..//etc/passwd', steps: () => [read('src//..//..//etc/passwd', OUTSIDE)] },
  { row: 8, title: 'src/./../.././../etc/passwd', steps: () => [read('src/./../.././../etc/passwd', OUTSIDE)] },
  {
    row: 9,
    title: 'empty and blank paths never mean the root',
    steps: () => [read('', INVALID), read('   ', INVALID), { tool: 'list_dir', args: { path: '' }, expect: INVALID }, write('', INVALID)],
  },
  {
    row: 10,
    title: 'reading the root is IS_A_DIRECTORY; listing it is allowed',
    steps: (fx) => [read('.', refused('IS_A_DIRECTORY')), read(fx.root, refused('IS_A_DIRECTORY')), { tool: 'list_dir', args: { path: '.' }, expect: { ok: true, content: /README\.md/ } }],
  },
  { row: 11, title: 'trailing slash on a file', steps: () => [read('README.md/', refused('NOT_A_DIRECTORY')), write('README.md/', INVALID)] },

  // ---------------------------------------------------------------- B. symbolic links
  { row: 12, title: 'link to a file outside', setup: async (fx) => void (await fx.link('leak', `${fx.base}/etc/passwd`)), steps: () => [read('leak', OUTSIDE)] },
  {
    row: 13,
    title: 'intermediate directory link to outside',
    setup: async (fx) => void (await fx.link('etc-link', `${fx.base}/etc`)),
    steps: () => [read('etc-link/passwd', OUTSIDE), { tool: 'list_dir', args: { path: 'etc-link' }, expect: OUTSIDE }],
  },
  { row: 14, title: 'relative link up: up -> ..', setup: async (fx) => void (await fx.link('up', '..')), steps: () => [read('up/secret.txt', OUTSIDE)] },
  {
    row: 15,
    title: 'chain of links a -> b -> outside',
    setup: async (fx) => {
      await fx.link('b', `${fx.home}/.ssh`);
      await fx.link('a', 'b');
    },
    steps: () => [read('a/id_ed25519', OUTSIDE)],
  },
  {
    row: 16,
    title: 'link whose target is inside: allowed (policy: links are followed when they stay inside)',
    setup: async (fx) => void (await fx.link('inner', 'src')),
    steps: () => [
      read('inner/a.ts', { ok: true, content: 'export const a = 1;\n' }),
      write('inner/b.ts', { ok: true }),
      { tool: 'list_dir', args: { path: '.' }, expect: { ok: true, content: /^inner -> src\/$/m } },
    ],
    after: async (fx) => expect(await readFile(fx.inRoot('src/b.ts'), 'utf8')).toBe('written by a test\n'),
  },
  {
    row: 17,
    title: 'write through a link to an existing outside file',
    setup: async (fx) => void (await fx.link('cfg', `${fx.home}/.bashrc`)),
    steps: () => [write('cfg', OUTSIDE), { tool: 'edit_file', args: { path: 'cfg', old_string: 'SENTINEL', new_string: 'x' }, expect: OUTSIDE }],
  },
  {
    row: 18,
    title: 'write through a dangling link to a new outside file',
    setup: async (fx) => void (await fx.link('ghost', `${fx.home}/new-outside.txt`)),
    steps: () => [write('ghost', refused('BROKEN_SYMLINK')), read('ghost', refused('BROKEN_SYMLINK'))],
    after: async (fx) => expect(await exists(`${fx.home}/new-outside.txt`)).toBe(false),
  },
  {
    row: 19,
    title: 'write into a directory link to outside',
    setup: async (fx) => void (await fx.link('linkdir', `${fx.home}/.config`)),
    steps: () => [write('linkdir/new.txt', OUTSIDE)],
    after: async (fx) => expect(await exists(`${fx.home}/.config/new.txt`)).toBe(false),
  },
  {
    row: 20,
    title: 'mkdir -p below a link to outside: refused before any mkdir',
    setup: async (fx) => void (await fx.link('a', fx.home)),
    steps: () => [write('a/b/c/new.txt', OUTSIDE)],
    after: async (fx) => expect(await exists(`${fx.home}/b`)).toBe(false),
  },
  {
    row: 21,
    title: 'link/../passwd is decided physically, not lexically',
    setup: async (fx) => {
      await fx.link('link', `${fx.base}/etc/ssl`);
      await fx.file('passwd', 'the lexical reading would return this\n');
    },
    steps: () => [read('link/../passwd', OUTSIDE), write('link/../passwd', OUTSIDE)],
  },
  {
    row: 22,
    title: 'link loops are refused, never resolved to the unresolved path',
    setup: async (fx) => {
      await fx.link('loop', 'loop');
      await fx.link('la', 'lb');
      await fx.link('lb', 'la');
    },
    steps: () => [read('loop/x', refused('SYMLINK_LOOP')), read('la/x', refused('SYMLINK_LOOP')), write('loop/x', refused('SYMLINK_LOOP')), read('loop', refused('SYMLINK_LOOP'))],
  },
  {
    row: 23,
    title: 'link to /proc/self/root',
    setup: async (fx) => void (await fx.link('root', '/proc/self/root')),
    steps: (fx) => [read(`root${fx.base}/etc/passwd`, OUTSIDE)],
  },
  {
    row: 24,
    title: 'links to /proc/self/environ and /proc/self/fd/0',
    setup: async (fx) => {
      await fx.link('env', '/proc/self/environ');
      await fx.link('fd0', '/proc/self/fd/0');
    },
    // fd 0 of a test worker may be a pipe, whose /proc name does not resolve: refused either way.
    steps: () => [read('env', OUTSIDE), read('fd0', refused(['PATH_OUTSIDE_WORKSPACE', 'BROKEN_SYMLINK', 'NOT_FOUND']))],
  },
  {
    row: 25,
    title: 'non-regular files: /dev/zero link, a FIFO inside (must not hang)',
    setup: async (fx) => {
      await fx.link('z', '/dev/zero');
      execFileSync('mkfifo', [fx.inRoot('pipe')]);
    },
    steps: () => [
      read('z', OUTSIDE),
      read('pipe', refused('NOT_A_REGULAR_FILE')),
      write('pipe', refused('NOT_A_REGULAR_FILE')),
      { tool: 'search_files', args: { pattern: 'x', path: 'pipe' }, expect: refused('NOT_A_REGULAR_FILE') },
      { tool: 'search_files', args: { pattern: 'export' }, expect: { ok: true, content: /src\/a\.ts:1:/ } },
    ],
  },
  {
    row: 26,
    title: 'file swapped for a link between the check and the open (deterministic; the race test loops it)',
    custom: async ({ fx, strategy }) => {
      await fx.file('data.txt', 'inside\n');
      const workspace = await Workspace.create(fx.root, { strategy });
      const located = await workspace.locateOrThrow('data.txt', 'read');
      // Renamed away, not removed: the checked inode stays alive, so its number cannot be reused.
      await rename(fx.inRoot('data.txt'), fx.inRoot('data.old'));
      await symlink(`${fx.base}/etc/passwd`, fx.inRoot('data.txt'));
      await expect(workspace.openFile(located, '"data.txt"')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
      // Swapped for another regular file (another inode): the descriptor is not what was checked.
      await rm(fx.inRoot('data.txt'));
      await fx.file('data.txt', 'another file\n');
      await expect(workspace.openFile(located, '"data.txt"')).rejects.toMatchObject({ code: 'PATH_CHANGED' });
    },
  },
  {
    row: 27,
    title: 'parent directory swapped for a link between the check and the open',
    custom: async ({ fx, strategy }) => {
      await fx.file('sub/passwd', 'inside\n');
      const workspace = await Workspace.create(fx.root, { strategy });
      const forRead = await workspace.locateOrThrow('sub/passwd', 'read');
      const forWrite = await workspace.locateOrThrow('sub/new.txt', 'write');
      await rename(fx.inRoot('sub'), fx.inRoot('sub.away'));
      await symlink(`${fx.base}/etc`, fx.inRoot('sub'));
      const error = await workspace.openFile(forRead, '"sub/passwd"').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FsError);
      expect(error).toMatchObject({ code: 'PATH_CHANGED' });
      const produce = async () => Buffer.from('x');
      await expect(workspace.replaceFile(forWrite, '"sub/new.txt"', { createParents: true, produce })).rejects.toMatchObject({ code: 'PATH_CHANGED' });
      expect(await exists(`${fx.base}/etc/new.txt`)).toBe(false);
    },
  },
  {
    row: 28,
    title: 'list_dir recursive with a link to /: listed, never descended',
    setup: async (fx) => void (await fx.link('all', '/')),
    steps: () => [
      { tool: 'list_dir', args: { path: '.', depth: 5 }, expect: { ok: true, content: /^all -> \(outside the workspace; not followed\)$/m, notContent: [/^all\//m, /proc/, /usr/] } },
      { tool: 'list_dir', args: { path: 'all' }, expect: OUTSIDE },
      { tool: 'find_files', args: { pattern: '**/*' }, expect: { ok: true, content: /src\/a\.ts/, notContent: [/^all/m] } },
    ],
  },
  {
    row: 29,
    title: 'globs that escape are refused; every match is validated',
    setup: async (fx) => {
      await fx.link('certs', `${fx.base}/etc/ssl`);
      await fx.link('home-link', fx.home);
    },
    steps: () => [
      { tool: 'find_files', args: { pattern: '../**/*.pem' }, expect: refused('INVALID_PATTERN') },
      { tool: 'find_files', args: { pattern: '/etc/*' }, expect: refused('INVALID_PATTERN') },
      { tool: 'find_files', args: { pattern: '**/../../*' }, expect: refused('INVALID_PATTERN') },
      { tool: 'find_files', args: { pattern: '{..,src}/*' }, expect: refused('INVALID_PATTERN') },
      { tool: 'find_files', args: { pattern: '**/*.pem' }, expect: { ok: true, content: '(no files match)' } },
      { tool: 'find_files', args: { pattern: '**/*', path: 'certs' }, expect: OUTSIDE },
      { tool: 'search_files', args: { pattern: 'SENTINEL' }, expect: { ok: true, content: /^\(no matches\)/ } },
      { tool: 'search_files', args: { pattern: 'x', glob: '../*' }, expect: refused('INVALID_PATTERN') },
      { tool: 'search_files', args: { pattern: 'x', path: 'certs/cert.pem' }, expect: OUTSIDE },
    ],
  },

  // ---------------------------------------------------------------- C. hard links
  {
    row: 30,
    title: 'write to a hard link of an outside file',
    setup: async (fx) => void (await link(`${fx.home}/.bashrc`, fx.inRoot('h'))),
    steps: () => [write('h', refused('HARD_LINKED')), { tool: 'edit_file', args: { path: 'h', old_string: 'SENTINEL', new_string: 'x' }, expect: refused('HARD_LINKED') }],
  },
  {
    row: 31,
    title: 'read a hard link: allowed and logged (pnpm hard-links node_modules)',
    custom: async ({ fx, harness, run }) => {
      const shared = await fx.outsideFile('home/dev/shared.txt', 'shared content, not a sentinel\n');
      await link(shared, fx.inRoot('k'));
      const logger = recordingLogger();
      const h = await harness({ logger });
      await run(h, [read('k', { ok: true, content: 'shared content, not a sentinel\n' })]);
      expect(logger.records.some((record) => record.level === 'info' && record.fields.nlink === 2 && record.fields.path === 'k')).toBe(true);
    },
  },
  {
    row: 32,
    title: 'no tool creates links (the shell tool is another package)',
    custom: async ({ harness }) => {
      const h = await harness();
      expect(h.harness.tools.names().sort()).toEqual(['edit_file', 'find_files', 'list_dir', 'read_file', 'search_files', 'write_file']);
      for (const schema of h.harness.tools.schemas()) {
        expect(Object.keys((schema.parameters as { properties: object }).properties)).not.toContain('target');
      }
    },
  },

  // ---------------------------------------------------------------- D. encoding and syntax tricks
  {
    row: 33,
    title: 'NUL byte',
    steps: () => [read('README.md\u0000../../etc/passwd', refused('INVALID_PATH', /NUL/)), write('a\u0000b', INVALID), { tool: 'list_dir', args: { path: '.\u0000' }, expect: INVALID }],
  },
  {
    row: 34,
    title: 'percent escapes are literal, never decoded',
    setup: async (fx) => void (await fx.file('..%2F..%2Fetc%2Fpasswd', 'a literal name inside\n')),
    steps: () => [read('..%2F..%2Fetc%2Fpasswd', { ok: true, content: 'a literal name inside\n' }), read('%2e%2e/secret.txt', refused('NOT_FOUND'))],
  },
  { row: 35, title: 'file:// URIs', steps: (fx) => [read('file:///etc/passwd', INVALID), read(`file://${fx.base}/etc/passwd`, INVALID)] },
  { row: 36, title: 'no home expansion', steps: () => [read('~/.ssh/id_ed25519', INVALID), read('~root/.profile', INVALID), write('~/x', INVALID), read('~', INVALID)] },
  {
    row: 37,
    title: 'no environment variable expansion',
    setup: async (fx) => void (await fx.file('$HOME/.aws/credentials', 'a directory literally named $HOME\n')),
    steps: () => [
      read('$HOME/.aws/credentials', { ok: true, content: 'a directory literally named $HOME\n' }),
      read('$USER/.aws/credentials', refused('NOT_FOUND', /not expanded/)),
      read('${HOME}/.aws/credentials', refused('NOT_FOUND')),
      read('%USERPROFILE%\\.aws\\credentials', INVALID),
      read('%USERPROFILE%/.aws/credentials', refused('NOT_FOUND', /not expanded/)),
    ],
  },
  {
    row: 38,
    title: 'Unicode normalisation: NFD finds the NFC entry; two equivalent entries are ambiguous',
    setup: async (fx) => {
      await fx.file('caf\u00e9.md', 'nfc on disk\n');
      await fx.file('a\u0323\u0301.md', 'variant one\n');
      await fx.file('a\u0301\u0323.md', 'variant two\n');
    },
    steps: () => [
      read('cafe\u0301.md', { ok: true, content: 'nfc on disk\n' }),
      read('caf\u00e9.md', { ok: true, content: 'nfc on disk\n' }),
      read('\u1ea1\u0301.md', refused('INVALID_PATH', /normalisation/)),
      read('a\u0323\u0301.md', { ok: true, content: 'variant one\n' }),
      // Same containment decision for both spellings of an escape.
      read('cafe\u0301.md/../../secret.txt', refused(['NOT_A_DIRECTORY', 'NOT_FOUND'])),
      read('../caf\u00e9/../secret.txt', OUTSIDE),
      read('../cafe\u0301/../secret.txt', OUTSIDE),
    ],
  },
  {
    row: 39,
    title: 'fullwidth ../ is literal on POSIX (never NFKC-folded)',
    steps: () => [read('\uff0e\uff0e\uff0fetc/passwd', refused('NOT_FOUND')), read('\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fsecret.txt', refused('NOT_FOUND'))],
  },
  {
    row: 40,
    title: 'bidi and invisible characters are refused; existing ones are listed escaped',
    setup: async (fx) => void (await fx.file('odd/invoice\u202etxt.exe', 'x\n')),
    steps: () => [
      write('invoice\u202etxt.exe', INVALID),
      write('a\u200bb.txt', INVALID),
      write('line\nbreak.txt', INVALID),
      { tool: 'list_dir', args: { path: 'odd' }, expect: { ok: true, content: 'odd/invoice\\u{202E}txt.exe', notContent: ['\u202e'] } },
    ],
  },
  {
    row: 41,
    title: 'very long paths and deep nesting fail cleanly',
    steps: () => [read('a'.repeat(5000), INVALID), read(`${'n'.repeat(300)}.txt`, INVALID), read(`${'a/'.repeat(2000)}x`, refused('NOT_FOUND')), write(`${'a/'.repeat(2100)}x`, INVALID)],
  },

  // ---------------------------------------------------------------- E. case-insensitive volumes
  {
    row: 42,
    // Linux volumes here are case-sensitive and tools-fs keeps no read deny-list (the safety
    // package does): what applies is that lookups stay exact, and protected-path matching folds case.
    title: 'case: exact lookups on a case-sensitive volume; protected paths fold case',
    setup: async (fx) => void (await fx.file('.env', 'DOTENV\n')),
    steps: () => [read('.ENV', refused('NOT_FOUND')), read('.Env', refused('NOT_FOUND')), write('.WEIR/settings.json', refused('DENIED'))],
    after: async (fx) => expect(await exists(fx.inRoot('.WEIR'))).toBe(false),
  },
  {
    row: 43,
    title: 'sibling prefix with a case variant',
    steps: (fx) => [read(`${fx.home}/PROJ_evil/x`, OUTSIDE), read('../PROJ_evil/x', OUTSIDE)],
  },
  {
    row: 44,
    title: '.GIT/hooks/pre-commit is treated as .git (protected)',
    steps: () => [write('.GIT/hooks/pre-commit', refused('DENIED', /approval/))],
    after: async (fx) => expect(await exists(fx.inRoot('.GIT'))).toBe(false),
  },

  // ---------------------------------------------------------------- F. Windows forms: refused on POSIX as Windows-style input
  { row: 45, title: 'drive paths', steps: () => [read('C:\\Windows\\win.ini', INVALID), read('C:/Windows/win.ini', INVALID), write('c:/x', INVALID)] },
  { row: 46, title: 'drive-relative path', steps: () => [read('C:secret.txt', INVALID)] },
  { row: 47, title: 'device and extended namespaces', steps: () => [read('\\\\?\\C:\\Windows\\win.ini', INVALID), read('\\\\.\\C:\\x', INVALID), read('\\\\?\\UNC\\host\\share', INVALID), read('//?/C:/x', INVALID)] },
  { row: 48, title: 'UNC paths, refused before any fs call', steps: () => [read('\\\\attacker.example\\share\\x', INVALID), read('//attacker.example/share/x', INVALID)] },
  { row: 49, title: 'admin share alias', steps: () => [read('\\\\localhost\\c$\\ws\\..\\Users', INVALID)] },
  {
    row: 50,
    title: 'alternate data streams',
    steps: () => [read('README.md:hidden', INVALID), read('README.md::$DATA', INVALID), write('notes.txt:hidden', INVALID)],
  },
  {
    row: 51,
    title: 'trailing dots and spaces',
    setup: async (fx) => void (await fx.file('secret.txt', 'inside secret\n')),
    steps: () => [read('secret.txt.', INVALID), read('secret.txt ', INVALID), write('src./x', INVALID)],
  },
  { row: 52, title: 'reserved device names', steps: () => [read('NUL', INVALID), read('CON', INVALID), read('COM1.txt', INVALID), read('aux.js', INVALID), write('src/lpt1', INVALID)] },
  { row: 53, title: '8.3 short names', steps: () => [read('PROGRA~1/x', INVALID), read('SECRET~1.TXT', INVALID)] },
  {
    row: 54,
    title: 'junction: backslash form refused; the POSIX analogue (a directory link) refused as outside',
    setup: async (fx) => void (await fx.link('j', `${fx.home}/.ssh`)),
    steps: () => [read('j\\id_ed25519', INVALID), read('j/id_ed25519', OUTSIDE)],
  },
  {
    row: 55,
    // The catalogue allows a literal backslash name on POSIX; tools-fs refuses every backslash so
    // that one input never means a file here and a traversal on Windows.
    title: 'backslash traversal',
    steps: () => [read('src\\..\\..\\x', INVALID), write('src\\x.ts', INVALID)],
  },

  // ---------------------------------------------------------------- G. inside the workspace, security-sensitive
  {
    row: 56,
    title: '.git/hooks and .git/config need approval every time',
    custom: async ({ fx, harness, run }) => {
      const before = await readFile(fx.inRoot('.git/config'), 'utf8');
      const headless = await harness();
      await run(headless, [write('.git/hooks/pre-commit', refused('DENIED')), write('.git/config', refused('DENIED')), { tool: 'edit_file', args: { path: '.git/config', old_string: 'bare', new_string: 'x' }, expect: refused('DENIED') }]);
      await headless.close();
      expect(await exists(fx.inRoot('.git/hooks/pre-commit'))).toBe(false);

      const denying = await harness({ approver: () => ({ decision: 'deny' }) });
      await run(denying, [write('.git/config', refused('DENIED'))]);
      expect(denying.approvals).toHaveLength(1);
      expect(denying.approvals[0]?.reason).toMatch(/protected/);
      await denying.close();
      expect(await readFile(fx.inRoot('.git/config'), 'utf8')).toBe(before);

      const approving = await harness({ approver: () => ({ decision: 'allow' }) });
      await run(approving, [write('.git/hooks/pre-commit', { ok: true }), write('.git/hooks/pre-commit', { ok: true })]);
      // Asked every time, not once per path.
      expect(approving.approvals).toHaveLength(2);
      expect(await readFile(fx.inRoot('.git/hooks/pre-commit'), 'utf8')).toBe('written by a test\n');
    },
  },
  {
    row: 57,
    title: 'harness config dir: protected even when the file does not exist',
    steps: () => [write('.weir/settings.json', refused('DENIED'))],
    after: async (fx) => expect(await exists(fx.inRoot('.weir'))).toBe(false),
  },
  {
    row: 58,
    title: 'editor task configs and .envrc',
    steps: () => [write('.vscode/tasks.json', refused('DENIED')), write('.idea/workspace.xml', refused('DENIED')), write('.envrc', refused('DENIED')), write('sub/.envrc', refused('DENIED'))],
  },
  {
    row: 59,
    title: 'worktree: .git is a file pointing elsewhere',
    custom: async ({ fx, harness, run }) => {
      await rm(fx.inRoot('.git'), { recursive: true });
      await writeFile(fx.inRoot('.git'), `gitdir: ${fx.home}/elsewhere/.git\n`);
      const h = await harness({ approver: () => ({ decision: 'allow' }) });
      // Writing into the resolved gitdir is outside; through `.git/` it is not a directory.
      await run(h, [
        write('.git/config', refused('NOT_A_DIRECTORY')),
        write(`${fx.home}/elsewhere/.git/hooks/pre-commit`, OUTSIDE),
        write('x', { ok: true }),
      ]);
      expect(h.approvals).toHaveLength(0);
      // The pointer itself is protected.
      await run(h, [read('.git', { ok: true }), write('.git', { ok: true }, `gitdir: ${fx.home}/elsewhere/.git\n`)]);
      expect(h.approvals).toHaveLength(1);
      await h.close();

      // A gitdir inside the workspace is protected under its own name too.
      await fx.file('.gitdata/hooks/.keep', '');
      await writeFile(fx.inRoot('.git'), 'gitdir: .gitdata\n');
      const headless = await harness();
      await run(headless, [write('.gitdata/hooks/pre-commit', refused('DENIED')), write('.gitdata/config', refused('DENIED'))]);
    },
  },

  // ---------------------------------------------------------------- H. resource exhaustion
  {
    row: 60,
    title: 'huge sparse file and huge directory: caps and truncation markers',
    options: { maxEntries: 50 },
    setup: async (fx) => {
      const huge = await fx.file('huge.bin', '');
      await truncate(huge, 10 * 1024 ** 3);
      await fx.file('big.txt', Array.from({ length: 200_000 }, (_, index) => `line ${index + 1}`).join('\n'));
      await mkdir(fx.inRoot('node_modules'));
      await Promise.all(Array.from({ length: 300 }, (_, index) => writeFile(fx.inRoot(`node_modules/m${String(index).padStart(3, '0')}.js`), '')));
    },
    steps: () => [
      // A read is a bounded window whatever the size: the sparse file's first chunk is NUL bytes.
      read('huge.bin', refused('BINARY_FILE')),
      { tool: 'read_file', args: { path: 'huge.bin', offset: 1, limit: 10 }, expect: refused('BINARY_FILE') },
      read('big.txt', { ok: true, content: /^ {5}1\tline 1\n[^]*\n {2}2000\tline 2000\n\[lines 1-2000 of 200000 of big\.txt\. Continue with offset=2001\.\]$/ }),
      { tool: 'read_file', args: { path: 'big.txt', offset: 100_000, limit: 2 }, expect: { ok: true, content: /^100000\tline 100000\n100001\tline 100001\n\[lines 100000-100001 of 200000 of big\.txt\. Continue with offset=100002\.\]$/ } },
      { tool: 'list_dir', args: { path: 'node_modules' }, expect: { ok: true, content: /node_modules\/m049\.js\n\[\.\.\. truncated/, notContent: ['m050'] } },
      { tool: 'find_files', args: { pattern: 'node_modules/*.js' }, expect: { ok: true, content: /\[\.\.\. truncated/ } },
      { tool: 'search_files', args: { pattern: 'line 1', path: 'big.txt' }, expect: { ok: true, content: /\[\.\.\. more results: continue with offset=50/ } },
    ],
  },
];

/** A whole file's text as read_file shows it: each line numbered like `cat -n`. */
function numbered(text: string): string {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');
}

function check(result: ToolResult, step: Step): void {
  const label = `${step.tool} ${JSON.stringify(step.args).slice(0, 120)}`;
  const { expect: expected } = step;
  if ('code' in expected) {
    expect(result.ok, `${label}: expected a refusal, got ${result.content.slice(0, 200)}`).toBe(false);
    if (result.ok) return;
    const codes = typeof expected.code === 'string' ? [expected.code] : expected.code;
    expect(codes, `${label}: ${result.content}`).toContain(result.error.code);
    if (expected.message) expect(result.error.message, label).toMatch(expected.message);
    return;
  }
  expect(result.ok, `${label}: ${result.content}`).toBe(true);
  if (expected.content !== undefined) {
    // read_file numbers its lines (`cat -n`); a row states the file's text.
    if (typeof expected.content === 'string') expect(result.content, label).toBe(step.tool === 'read_file' ? numbered(expected.content) : expected.content);
    else expect(result.content, label).toMatch(expected.content);
  }
  for (const unwanted of expected.notContent ?? []) {
    if (typeof unwanted === 'string') expect(result.content, label).not.toContain(unwanted);
    else expect(result.content, label).not.toMatch(unwanted);
  }
}

describe.each(['proc', 'path'] as const)('attack catalogue (%s strategy)', (strategy) => {
  let fx: SentinelFixture;
  const harnesses: FsHarness[] = [];

  beforeEach(async () => {
    fx = await createSentinelFixture();
    await fx.file('src/a.ts', 'export const a = 1;\n');
    await fx.file('README.md', '# project\n');
    await fx.file('.git/config', '[core]\n\tbare = false\n');
    await fx.file('.git/hooks/.keep', '');
  });

  afterEach(async () => {
    try {
      for (const h of harnesses.splice(0)) {
        await h.close();
        assertNoMarker(h.results, fx.marker);
      }
      await fx.verify();
    } finally {
      await fx.cleanup();
    }
  });

  it.each(rows.map((row) => [row.row, row.title, row] as const))('row %i: %s', async (_number, _title, row) => {
    const harness = async (options: FsHarnessOptions = {}) => {
      const h = await createFsHarness(fx.root, { write: true, strategy, ...row.options, ...options });
      harnesses.push(h);
      return h;
    };
    const run = async (h: FsHarness, steps: readonly Step[]) => {
      for (const step of steps) check(await h.call(step.tool, step.args), step);
    };
    await row.setup?.(fx);
    if (row.custom) {
      await row.custom({ fx, strategy, harness, run });
      return;
    }
    const h = await harness();
    await run(h, row.steps?.(fx) ?? []);
    await row.after?.(fx, h);
  });

  it('covers every catalogue row exactly once', () => {
    expect(rows.map((row) => row.row)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
  });
});
