import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The cold-start rule of docs/design.md, checked in real processes: importing a first-party package
// loads only small third-party packages. A large dependency (a validator, a logger, a terminal UI,
// a glob engine, an SDK such as MCP's, OpenTelemetry's or BullMQ's) is imported when the call path
// that needs it first runs, never with the package. `pnpm bench` has the figures.

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOOK = pathToFileURL(join(REPO, 'bench', 'test', 'support', 'record-packages.mjs')).href;

/** Third-party packages a first-party entry may load when it is imported: each is a few KB, with no dependencies of its own worth counting. */
const ALLOWED_AT_IMPORT = new Set(['tapable', 'p-retry', 'is-network-error', 'p-timeout', 'eventsource-parser', '@standard-schema/spec']);

interface FirstParty {
  readonly name: string;
  readonly source: string;
}

function firstPartyPackages(): FirstParty[] {
  return readdirSync(join(REPO, 'packages'))
    .sort()
    .flatMap((dir) => {
      const manifestPath = join(REPO, 'packages', dir, 'package.json');
      if (!existsSync(manifestPath)) return [];
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; private?: boolean; exports?: Record<string, Record<string, string>> };
      const source = manifest.exports?.['.']?.['@weir/source'];
      return manifest.private === true || source === undefined ? [] : [{ name: manifest.name, source: join(REPO, 'packages', dir, source) }];
    });
}

/** The third-party package names a fresh process loads while it imports `entry` (its sources, through tsx). */
function packagesLoadedBy(entry: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', HOOK, '--conditions=@weir/source', '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(entry).href)})`], {
      cwd: REPO,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`importing ${entry} exited ${code}: ${stderr.slice(0, 2000)}`));
      const names = new Set<string>();
      for (const [, url] of stderr.matchAll(/^LOADED (.+)$/gm)) {
        const after = url!.slice(url!.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
        const name = after[0]!.startsWith('@') ? `${after[0]}/${after[1]}` : after[0]!;
        // tsx itself, and workspace links back into this repository, are not dependencies.
        if (name !== 'tsx' && !name.startsWith('@weir/')) names.add(name);
      }
      resolve([...names].sort());
    });
  });
}

describe('importing a first-party package loads no large dependency', () => {
  const packages = firstPartyPackages();

  it('finds the packages, and sees a package that is loaded', { timeout: 90_000 }, async () => {
    expect(packages.map((entry) => entry.name)).toContain('@weir/core');
    // Not vacuous: importing a dependency straight away is seen.
    expect(await packagesLoadedBy(join(REPO, 'bench', 'node_modules', 'zod', 'index.js'))).toContain('zod');
  });

  it.each(packages.map((entry) => [entry.name, entry] as const))('%s', { timeout: 90_000 }, async (_name, entry) => {
    const loaded = await packagesLoadedBy(entry.source);
    expect(loaded.filter((name) => !ALLOWED_AT_IMPORT.has(name))).toEqual([]);
  });
});
