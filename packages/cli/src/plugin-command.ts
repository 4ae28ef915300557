import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { Bundle } from './bundles/bundle.js';
import { BundleError } from './bundles/bundle-error.js';
import { projectRecords, readBundleRecords, userBundlesPrefix, userRecords, writeBundleRecords, type BundleRecord, type RecordsPlace } from './bundles/bundle-records.js';
import { readBundle } from './bundles/read-bundle.js';
import { untrustedProjectFiles } from './project-trust.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { UsageError } from './usage-error.js';
import { userSettingsFile } from './weir-home.js';

export const PLUGIN_USAGE = `Usage:
  weir plugin add <folder | npm package> [--project]   add a plugin bundle (a package.json "weir" field or .claude-plugin/plugin.json)
  weir plugin list                                     the bundles added, the user's and this project's
  weir plugin remove <name> [--project]                remove one
Flags: --project records it in <workspace>/.weir/plugins.json (loaded once the folder is trusted) instead of
the user's <weir home>/plugins.json; --workspace <folder> names the project (default: the current folder).`;

const NPM_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@\S+)?$/;

/**
 * `weir plugin add | list | remove`: records plugin bundles for the sessions to load. `args` are the
 * words after `plugin`. Resolves to the exit status; a usage mistake is a `UsageError`, a bundle
 * that is not one a `BundleError` (one line each, printed by `main`).
 */
export async function pluginCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { project: { type: 'boolean' }, workspace: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} Run weir plugin help for the commands.`);
  }
  const [action, ...words] = parsed.positionals;
  const workspace = await resolveWorkspace(parsed.values.workspace);
  const place = parsed.values.project === true ? projectRecords(workspace) : userRecords(env);
  switch (action) {
    case 'add':
      if (words.length !== 1) throw new UsageError(`weir plugin add takes one folder or npm package. Run weir plugin help for the commands.`);
      return addBundle(words[0]!, place, workspace, env);
    case 'list':
      if (words.length > 0 || parsed.values.project === true) throw new UsageError(`weir plugin list takes no arguments. Run weir plugin help for the commands.`);
      return listBundles([userRecords(env), projectRecords(workspace)], (await untrustedProjectFiles(workspace, userSettingsFile(env))).length > 0);
    case 'remove':
      if (words.length !== 1) throw new UsageError(`weir plugin remove takes one plugin name (weir plugin list shows them). Run weir plugin help for the commands.`);
      return removeBundle(words[0]!, place, env);
    case 'help':
      process.stdout.write(`${PLUGIN_USAGE}\n`);
      return 0;
    default:
      throw new UsageError(`${action === undefined ? 'weir plugin needs add, list or remove' : `Unknown plugin command "${action}" (expected add, list or remove)`}.`);
  }
}

async function addBundle(spec: string, place: RecordsPlace, workspace: string, env: NodeJS.ProcessEnv): Promise<number> {
  const records = await readBundleRecords(place);
  const folder = resolve(spec);
  const isFolder = await stat(folder).then((s) => s.isDirectory(), () => false);
  let root: string;
  if (isFolder) root = folder;
  else if (spec.endsWith('.tgz') || NPM_SPEC.test(spec)) root = place.scope === 'user' ? await npmInstall(spec, userBundlesPrefix(env)) : await projectPackage(spec, workspace);
  else throw new UsageError(`"${spec}" is neither a folder nor an npm package name.`);
  const bundle = await readBundle(root);
  const taken = records.find((record) => record.name === bundle.name);
  if (taken !== undefined) throw new BundleError(`A plugin named "${bundle.name}" is already added (${taken.root}); remove it first: weir plugin remove ${bundle.name}${place.scope === 'project' ? ' --project' : ''}.`);
  await writeBundleRecords(place, [...records, { name: bundle.name, source: isFolder ? 'folder' : 'npm', spec, root }]);
  process.stdout.write(`Added plugin ${bundle.name} (${describeParts(bundle)}) from ${root}, in ${place.file}.\nIt loads in the next session, or after /reload.\n`);
  return 0;
}

async function listBundles(places: readonly RecordsPlace[], projectUntrusted: boolean): Promise<number> {
  let count = 0;
  for (const place of places) {
    for (const record of await readBundleRecords(place)) {
      count += 1;
      const parts = await readBundle(record.root).then(describeParts, (error: unknown) => `cannot be read: ${(error as Error).message}`);
      const waiting = place.scope === 'project' && projectUntrusted ? ' (not run until you trust this folder: weir trust)' : '';
      process.stdout.write(`${record.name}  ${place.scope}  ${record.source === 'npm' ? `npm ${record.spec}` : 'folder'}  ${record.root}${waiting}\n  ${parts}\n`);
    }
  }
  if (count === 0) process.stdout.write('No plugins added (weir plugin add <folder | npm package>).\n');
  return 0;
}

async function removeBundle(name: string, place: RecordsPlace, env: NodeJS.ProcessEnv): Promise<number> {
  const records = await readBundleRecords(place);
  const record = records.find((entry) => entry.name === name);
  if (record === undefined) {
    const names = records.map((entry) => entry.name);
    throw new BundleError(`No ${place.scope === 'user' ? "user's" : "project's"} plugin is named "${name}" (${names.length === 0 ? 'none is added' : `added: ${names.join(', ')}`}${place.scope === 'user' ? '; a project\'s takes --project' : ''}).`);
  }
  await writeBundleRecords(place, records.filter((entry) => entry !== record));
  if (record.source === 'npm' && place.scope === 'user') await npmUninstall(record.root, userBundlesPrefix(env));
  process.stdout.write(`Removed plugin ${name} from ${place.file}. A running session drops it at /reload.\n`);
  return 0;
}

/** What a bundle ships, in a few words. */
export function describeParts(bundle: Bundle): string {
  const count = (n: number, word: string) => (n === 0 ? [] : [`${n} ${word}${n === 1 ? '' : 's'}`]);
  const events = new Set(bundle.hooks.flatMap((part) => Object.keys(part.hooks as object)));
  const parts = [
    ...count(bundle.tools.length, 'tool module'),
    ...count(bundle.skills.length, 'skills folder'),
    ...count(bundle.commands.length, 'commands folder'),
    ...count(bundle.agents.length, 'agents folder'),
    ...(events.size === 0 ? [] : [`hooks on ${[...events].join(', ')}`]),
    ...count(bundle.mcpServers.length, 'MCP server'),
  ];
  return `${bundle.format === 'claude' ? 'Claude Code plugin' : 'weir bundle'}${bundle.version === undefined ? '' : ` ${bundle.version}`}: ${parts.length === 0 ? 'nothing to load' : parts.join(', ')}`;
}

const run = promisify(execFile);

/** `npm install` into the user's bundle prefix; resolves to the installed package's folder. */
async function npmInstall(spec: string, prefix: string): Promise<string> {
  const before = await dependencies(prefix);
  try {
    await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--save', spec], { encoding: 'utf8' });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').find((line) => /ERR!/.test(line)) ?? (error as Error).message;
    throw new BundleError(`npm install ${spec} failed: ${stderr.replace(/^npm (?:error|ERR!)\s*/, '')}`);
  }
  const after = await dependencies(prefix);
  const name = Object.keys(after).find((key) => before[key] !== after[key]) ?? Object.keys(after).find((key) => spec === key || spec.startsWith(`${key}@`));
  if (name === undefined) throw new BundleError(`npm install ${spec} did not add a package to ${prefix}.`);
  return join(prefix, 'node_modules', name);
}

async function npmUninstall(root: string, prefix: string): Promise<void> {
  const name = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string }).name;
  await run('npm', ['uninstall', '--prefix', prefix, '--no-audit', '--no-fund', name], { encoding: 'utf8' });
}

async function dependencies(prefix: string): Promise<Record<string, string>> {
  try {
    return (JSON.parse(await readFile(join(prefix, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  } catch {
    return {};
  }
}

/** A project's npm bundle is one of its own dependencies: resolved from its node_modules, never installed by weir. */
async function projectPackage(spec: string, workspace: string): Promise<string> {
  const root = join(workspace, 'node_modules', spec);
  if (!(await stat(root).then((s) => s.isDirectory(), () => false))) {
    throw new BundleError(`${spec} is not installed in ${workspace}/node_modules: a project's plugin package is one of its dependencies (npm install ${spec}, then weir plugin add ${spec} --project).`);
  }
  return root;
}
