import { execFile } from 'node:child_process';

/** How to run ripgrep for a candidate list. */
export interface RipgrepQuery {
  /** Canonical absolute directory to search. */
  readonly directory: string;
  /** A literal every match contains (ASCII). */
  readonly literal: string;
  readonly ignoreCase: boolean;
  /** Search hidden files and directories too (the caller sets it whenever the walk may include one). */
  readonly hidden: boolean;
  readonly includeIgnored: boolean;
  /** Directory names ripgrep need not enter (the walk never does): `.git`, `node_modules`. */
  readonly skipDirectories: readonly string[];
  readonly maxFileBytes: number;
  readonly signal: AbortSignal;
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
let available: Promise<boolean> | undefined;

/** Whether `rg` runs here (asked once per process). Never throws. */
export function ripgrepAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    execFile('rg', ['--version'], { timeout: 5000 }, (error, stdout) => resolve(error === null && stdout.startsWith('ripgrep')));
  });
  return available;
}

/** What ripgrep listed. */
export interface RipgrepListing {
  /** Files that contain the literal, relative to the searched directory. */
  readonly paths: readonly string[];
  /** How many files ripgrep searched (its `--stats`), when it said. */
  readonly searched: number | undefined;
}

/**
 * The files under `directory` that contain `literal`, relative to it, as ripgrep finds them:
 * `--no-config` (no RIPGREP_CONFIG_PATH), links not followed (ripgrep's default), fixed-string
 * search of the literal only, so ripgrep's regex dialect never decides anything; the caller
 * walks to, opens and matches every candidate itself with the JavaScript expression. Ignore rules as
 * close to the JavaScript walk as ripgrep allows (`.gitignore` without a git repository, no
 * global or `.git/info/exclude` rules, none from above the directory): ripgrep may only list
 * more files, which the walk then filters. With `--stats`, how many files it searched.
 * `undefined` when ripgrep failed or reported an error (a partial list must not hide files).
 * Never throws.
 */
export function ripgrepCandidates(query: RipgrepQuery): Promise<RipgrepListing | undefined> {
  const args = ['--no-config', '--files-with-matches', '--stats', '--fixed-strings', '--null', '--no-messages', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-parent'];
  args.push('--max-filesize', String(query.maxFileBytes));
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.hidden) args.push('--hidden');
  if (query.includeIgnored) args.push('--no-ignore');
  // A trailing "/" keeps a file of that name (a worktree's `.git` file) listed.
  for (const name of query.skipDirectories) args.push('--glob', `!${name}/`);
  args.push('--regexp', query.literal, '--', '.');
  return new Promise((resolve) => {
    execFile('rg', args, { cwd: query.directory, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'buffer', signal: query.signal, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error, stdout) => {
      // Exit 1 is "nothing matched"; anything else but 0 is an error, and the list may be partial.
      const code = (error as { code?: unknown } | null)?.code;
      if (error !== null && code !== 1) return resolve(undefined);
      // Every listed name ends with a NUL; the statistics follow the last one.
      const entries = stdout.toString('utf8').split('\0');
      const stats = entries.pop() ?? '';
      const paths = entries.map((entry) => (entry.startsWith('./') ? entry.slice(2) : entry));
      const searched = /^(\d+) files? searched$/m.exec(stats);
      resolve({ paths, searched: searched === null ? undefined : Number(searched[1]) });
    });
  });
}
