// The scaffolder's own test, as a plugin author meets it: `npm create @weir/plugin` (the
// create-plugin binary from its tarball) makes a package in a fresh folder outside the workspace,
// npm installs it with the packed @weir/core in place of the registry's, and the package's own
// `npm test` (tsc, then node --test: the conformance kit, the tool, the skill's front matter) passes.
// Called by run.mjs once the tarballs are installed in `app`; throws a one-line message on failure.
// It is the slow step of the run (about 50 s on the shared 2-core machine, measured under load):
// npm installs what a plugin author gets (typescript, @types/node, @changesets/cli) and tsc builds.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** `tarballs`: package name -> tarball path; `app`: the folder the tarballs are installed in. */
export function checkScaffoldedPlugin({ work, app, tarballs }) {
  const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const attempt = (label, command, args, cwd) => {
    try {
      return run(command, args, cwd);
    } catch (error) {
      throw new Error(`${label} failed\n${String(error.stdout ?? '')}${String(error.stderr ?? error.message)}`);
    }
  };
  const dir = join(work, 'weir-tool-words');
  const made = attempt('create-plugin', join(app, 'node_modules/.bin/create-plugin'), [dir], work);
  if (!made.includes('Made weir-tool-words (plugin "words")')) throw new Error(`create-plugin printed ${JSON.stringify(made)}`);
  const core = tarballs.get('@weir/core');
  if (core === undefined) throw new Error('no @weir/core tarball to install the scaffolded package with');
  attempt('npm install in the scaffolded package', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', core], dir);
  const output = attempt('npm test in the scaffolded package', 'npm', ['test'], dir);
  // node --test prints its totals as TAP comments on Node 20 (`# pass 3`) and through the spec
  // reporter on Node 22 and later (`ℹ pass 3`).
  const passed = /^(?:#|ℹ) pass (\d+)$/m.exec(output)?.[1];
  const failed = /^(?:#|ℹ) fail (\d+)$/m.exec(output)?.[1];
  if (passed !== '3' || failed !== '0') throw new Error(`the scaffolded package's tests: ${passed} passed, ${failed} failed (expected 3, 0)\n${output}`);
  return `scaffolded plugin: ok (${passed} tests passed)\n`;
}
