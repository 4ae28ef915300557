/**
 * One entry of the protected-path list. `path` is written one way for every tool that reads the
 * list (tools-fs, tools-shell, safety): a single name (`.git`, `package.json`, `*.code-workspace`)
 * matches that name at any depth; a path with `/` (`.github/workflows`) matches from the workspace
 * root; either covers everything below it; `*` matches within one name. Matching folds case.
 */
export interface ProtectedPath {
  readonly path: string;
  /** What a change there can do, for the README and the approval prompt's reader. */
  readonly why: string;
  /**
   * Ordinary commands write it (`npm install x` edits `package.json`): the shell leaves it writable
   * rather than fail them, while the write tools and the safety rules still ask before a change.
   */
  readonly commandsWrite?: true;
}

/**
 * The paths inside a workspace whose change can run code or reconfigure the harness: writing
 * there needs explicit approval from the write tools and the safety rules, and the shell's sandbox
 * binds them read-only (docs/reliability.md 1.1 rule 10, 1.2 rows 56-58). The one list; each
 * package derives its own form from it (`protectedPathGlobs` for glob rules).
 */
export const PROTECTED_PATHS: readonly ProtectedPath[] = Object.freeze([
  { path: '.git', why: 'git hooks and config (core.fsmonitor, aliases) run on the next git command' },
  { path: '.weir', why: "the harness's own configuration" },
  { path: '.vscode', why: 'editor tasks and settings run on open' },
  { path: '.idea', why: 'editor run configurations' },
  { path: '.husky', why: 'git hooks installed by husky' },
  { path: '.envrc', why: 'direnv runs it on entering the directory' },
  { path: 'package.json', why: 'package scripts run on install and test', commandsWrite: true },
  { path: '.npmrc', why: 'registry and install-script configuration' },
  { path: '.github/workflows', why: 'CI workflows run on the next push' },
  { path: '.devcontainer', why: 'dev containers run it on start' },
  { path: '.pre-commit-config.yaml', why: 'pre-commit hooks run on the next commit' },
  { path: '*.code-workspace', why: 'editor workspace tasks run on open' },
].map((entry) => Object.freeze(entry)) as ProtectedPath[]);

// The entries as glob patterns over `/`-separated paths relative to the root (picomatch, minimatch):
// a name `n` becomes `**/n` and `**/n/**`, a path `p` becomes `p` and `p/**`. Pure.
export function protectedPathGlobs(entries: readonly ProtectedPath[] = PROTECTED_PATHS): string[] {
  return entries.flatMap(({ path }) => {
    const anchored = path.includes('/');
    const base = anchored ? path : `**/${path}`;
    return [base, `${base}/**`];
  });
}
