import { execFile } from 'node:child_process';

/** How to run ripgrep for a candidate list. */
export interface RipgrepQuery {
  /** Canonical absolute directory to search. */
  readonly directory: string;
  /** A literal every match contains (ASCII). */
  readonly literal: string;
  readonly ignoreCase: boolean;
  readonly hidden: boolean;
  readonly includeIgnored: boolean;
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

/**
 * The files under `directory` that contain `literal`, relative to it, as ripgrep finds them:
 * `--no-config` (no RIPGREP_CONFIG_PATH), links not followed (ripgrep's default), fixed-string
 * search of the literal only, so ripgrep's regex dialect never decides anything; the caller
 * walks, opens and matches every candidate itself with the JavaScript expression. Ignore rules as
 * close to the JavaScript walk as ripgrep allows (`.gitignore` without a git repository, no
 * global or `.git/info/exclude` rules, none from above the directory): ripgrep may only list
 * more files, which the walk then filters. `undefined` when ripgrep failed or reported an error
 * (a partial list must not hide files). Never throws.
 */
export function ripgrepCandidates(query: RipgrepQuery): Promise<Set<string> | undefined> {
  const args = ['--no-config', '--files-with-matches', '--fixed-strings', '--null', '--no-messages', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-parent'];
  args.push('--max-filesize', String(query.maxFileBytes));
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.hidden) args.push('--hidden');
  if (query.includeIgnored) args.push('--no-ignore');
  args.push('--regexp', query.literal, '--', '.');
  return new Promise((resolve) => {
    execFile('rg', args, { cwd: query.directory, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'buffer', signal: query.signal, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error, stdout) => {
      // Exit 1 is "nothing matched"; anything else but 0 is an error, and the list may be partial.
      const code = (error as { code?: unknown } | null)?.code;
      if (error !== null && code !== 1) return resolve(undefined);
      const found = new Set<string>();
      for (const entry of stdout.toString('utf8').split('\0')) {
        if (entry === '') continue;
        found.add(entry.startsWith('./') ? entry.slice(2) : entry);
      }
      resolve(found);
    });
  });
}
