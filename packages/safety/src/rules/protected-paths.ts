import { PROTECTED_PATHS, protectedPathGlobs } from '@weir/core';

/**
 * Paths inside the workspace whose change can run code or reconfigure the harness: core's
 * `PROTECTED_PATHS`, the one list tools-fs, tools-shell and safety share (git hooks and config, the
 * harness's own config directory, editor task configs and workspace files, direnv files, package
 * scripts and registry config, CI workflows, dev containers, pre-commit hooks), as glob rules. A
 * write or dangerous tool naming one asks every time, in every mode, even when an allow rule or
 * "allow for this session" would cover it (docs/reliability.md 1.2 rows 56-58). They match
 * case-insensitively (row 44) and on the literal path too, so they hold for files that do not exist
 * yet (row 57). Replace the list with `safety({ protectedPaths })`; `[]` turns the protection off.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze(protectedPathGlobs(PROTECTED_PATHS));
