// The packed-install test: what a user gets from npm, not what the workspace resolves. It packs
// every publishable workspace package (every package.json without "private": true, so a new package
// is picked up without editing this file), checks each tarball carries LICENSE and README.md,
// installs the tarballs with npm in a fresh folder outside the workspace, imports every export path
// of every package (JavaScript, then type-checked TypeScript), and runs a small JavaScript app and a
// type-checked TypeScript app, and the package @weir/create-plugin makes passes its own tests
// against the tarballs (scaffolded-plugin.mjs). Run with the Node version under test first on PATH:
//   node .ci/packed-install/run.mjs
// Exits non-zero, with one line saying what failed, on any failure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScaffoldedPlugin } from './scaffolded-plugin.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
// Pinned like the workspace's own: the TypeScript and Node types a user would install.
const TYPESCRIPT = 'typescript@5.9.3';
const NODE_TYPES = '@types/node@^20.19.0';

const run = (command, args, cwd, options = {}) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
const step = (label) => console.log(`packed-install: ${label}`);

class Failure extends Error {}
function fail(message, error) {
  const detail = error ? `\n${String(error.stdout ?? '')}${String(error.stderr ?? error.message ?? error)}` : '';
  throw new Failure(`packed-install: FAILED: ${message}${detail}`);
}

const work = mkdtempSync(join(tmpdir(), 'weir-packed-'));
try {
  step(`node ${process.version}, in ${work}`);
  const listed = JSON.parse(run('npx', ['-y', 'pnpm@10', 'ls', '-r', '--depth', '-1', '--json'], repo));
  const packages = listed
    .filter((entry) => entry.private !== true)
    .map((entry) => ({ name: entry.name, dir: entry.path, manifest: JSON.parse(readFileSync(join(entry.path, 'package.json'), 'utf8')) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (packages.length === 0) fail('no publishable package found');
  step(`packing ${packages.map((p) => p.name).join(', ')}`);

  try {
    run('npx', ['-y', 'pnpm@10', 'build'], repo);
  } catch (error) {
    fail('the build failed', error);
  }

  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  for (const pkg of packages) {
    const before = new Set(readdirSync(tarballs));
    try {
      run('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', tarballs], pkg.dir);
    } catch (error) {
      fail(`pnpm pack failed in ${pkg.dir}`, error);
    }
    const made = readdirSync(tarballs).filter((file) => !before.has(file));
    if (made.length !== 1) fail(`pnpm pack in ${pkg.dir} made ${made.length} tarballs`);
    pkg.tarball = join(tarballs, made[0]);
    const files = run('tar', ['-tzf', pkg.tarball], work).split('\n');
    for (const required of ['package/LICENSE', 'package/README.md']) {
      if (!files.includes(required)) fail(`${pkg.name}: the tarball has no ${required.slice('package/'.length)} (copy the root LICENSE into ${pkg.dir}, and write its README.md)`);
    }
    const packed = JSON.parse(run('tar', ['-xzOf', pkg.tarball, 'package/package.json'], work));
    const unresolved = Object.entries({ ...packed.dependencies, ...packed.peerDependencies }).filter(([, range]) => String(range).startsWith('workspace:'));
    if (unresolved.length > 0) fail(`${pkg.name}: the tarball still has workspace: ranges (${unresolved.map(([n]) => n).join(', ')})`);
  }

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'weir-packed-app', private: true, type: 'module' }, null, 2));
  step('npm install of the tarballs, typescript and @types/node');
  try {
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages.map((p) => p.tarball), TYPESCRIPT, NODE_TYPES], app);
  } catch (error) {
    fail('npm install of the tarballs failed', error);
  }

  // Every export path of every package loads, and its types resolve under nodenext.
  const entries = packages.flatMap((pkg) =>
    Object.keys(pkg.manifest.exports ?? { '.': null })
      .filter((key) => !key.endsWith('.json') && !key.includes('*'))
      .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`)),
  );
  writeFileSync(
    join(app, 'imports.mjs'),
    `${entries.map((entry, i) => `import * as m${i} from '${entry}';`).join('\n')}\n` +
      `const loaded = [${entries.map((_, i) => `m${i}`).join(', ')}];\n` +
      `const empty = ${JSON.stringify(entries)}.filter((_, i) => Object.keys(loaded[i]).length === 0);\n` +
      `if (empty.length > 0) throw new Error('no exports: ' + empty.join(', '));\n` +
      `console.log('packed imports: ok (' + loaded.length + ' entry points)');\n`,
  );
  writeFileSync(
    join(app, 'imports.ts'),
    `${entries.map((entry, i) => `import * as m${i} from '${entry}';`).join('\n')}\nexport const loaded = [${entries.map((_, i) => `m${i}`).join(', ')}];\n`,
  );
  for (const file of ['app.mjs', 'app.ts', 'tsconfig.json']) copyFileSync(join(here, file), join(app, file));

  const node = process.execPath;
  for (const [label, args] of [
    ['import every entry point', ['imports.mjs']],
    ['the JavaScript app', ['app.mjs']],
  ]) {
    step(label);
    try {
      process.stdout.write(run(node, args, app));
    } catch (error) {
      fail(`${label} failed`, error);
    }
  }
  step('type-check the TypeScript app (tsc, nodenext, strict)');
  try {
    run(node, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
  } catch (error) {
    fail('the TypeScript app does not type-check', error);
  }
  step('the TypeScript app');
  try {
    process.stdout.write(run(node, ['dist/app.js'], app));
  } catch (error) {
    fail('the TypeScript app failed', error);
  }
  // The CLI as npm installs it: its bin runs from the tarball, in a folder of its own.
  if (packages.some((p) => p.name === '@weir/cli')) {
    step('the weir binary: --version, and weir run with the mock model');
    const folder = join(work, 'cli-workspace');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.txt'), 'Packed and installed.\n');
    const weir = join(app, 'node_modules/.bin/weir');
    const env = { ...process.env, WEIR_HOME: join(work, 'weir-home') };
    for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
    try {
      const version = run(weir, ['--version'], folder, { env }).trim();
      const cliVersion = packages.find((p) => p.name === '@weir/cli').manifest.version;
      if (version !== cliVersion) fail(`weir --version printed ${JSON.stringify(version)}, expected ${cliVersion}`);
      const answer = run(weir, ['run', 'read file notes.txt'], folder, { env });
      if (!answer.includes('Packed and installed.')) fail(`weir run did not answer with the file: ${JSON.stringify(answer)}`);
      process.stdout.write(answer);
    } catch (error) {
      if (error instanceof Failure) throw error;
      fail('the weir binary failed', error);
    }
  }
  // The scaffolder: the package it makes passes its own tests against the tarballs.
  if (packages.some((p) => p.name === '@weir/create-plugin')) {
    step('npm create @weir/plugin in a fresh folder, npm install with the packed @weir/core, npm test there');
    try {
      process.stdout.write(checkScaffoldedPlugin({ work, app, tarballs: new Map(packages.map((p) => [p.name, p.tarball])) }));
    } catch (error) {
      fail(`the scaffolded plugin: ${error.message}`);
    }
  }
  step(`ok: ${packages.length} packages, ${entries.length} entry points`);
} catch (error) {
  console.error(error instanceof Failure ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
