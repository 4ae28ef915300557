import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('..', import.meta.url));

/** A workspace package that is published (its package.json has no `"private": true`). */
export interface PublishablePackage {
  readonly dir: string;
  readonly manifest: { name: string; license?: string; engines?: { node?: string }; files?: string[] };
}

/**
 * Every publishable package of the workspace, found from pnpm-workspace.yaml's `<folder>/*` and
 * `<folder>` patterns, so a new package is checked without editing a list.
 */
export function publishablePackages(): PublishablePackage[] {
  const workspace = readFileSync(join(repo, 'pnpm-workspace.yaml'), 'utf8');
  const patterns = [...workspace.matchAll(/^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/gm)].map((match) => match[1]!);
  const dirs = patterns.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(repo, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(repo, pattern.slice(0, -2), entry.name))
      : [join(repo, pattern)],
  );
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
}
