import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './publishable-packages.js';

/**
 * The folder of other people's data the tests read at run time and the repository never holds:
 * `shared/fixtures/` beside the clone (CI lays it there). `WEIR_SHARED_FIXTURES` names another place.
 */
export const sharedFixturesDir: string = process.env.WEIR_SHARED_FIXTURES ?? join(repo, '..', 'shared', 'fixtures');

/**
 * The path of `relative` inside the shared fixtures, or undefined when it is absent (a clone with no
 * `shared/` beside it). When absent, says once on standard error which cases are skipped and why,
 * so the suite runs on and the skip is visible: use with `describe.skipIf(!path)` or `it.runIf(path)`.
 */
export function sharedFixture(relative: string, whatIsSkipped: string): string | undefined {
  const path = join(sharedFixturesDir, relative);
  if (existsSync(path)) return path;
  process.stderr.write(`skipped: ${whatIsSkipped}: ${path} is absent (the shared fixtures lie beside the clone in CI)\n`);
  return undefined;
}
