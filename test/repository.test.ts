// What a new user meets before any code runs: a license in every package, a README on every npm
// page, one supported Node version stated everywhere, and docs that cite nothing outside the repository.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages, repo } from './publishable-packages.js';

const rootManifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string } };
const license = readFileSync(join(repo, 'LICENSE'), 'utf8');
const packages = publishablePackages();

describe('the repository', () => {
  it('finds the publishable packages', () => {
    expect(packages.map((pkg) => pkg.manifest.name)).toEqual(expect.arrayContaining(['@weir/core', '@weir/llm-mock', '@weir/tools-fs']));
  });

  it('has an MIT LICENSE at the root', () => {
    expect(license).toMatch(/^MIT License/);
  });

  it.each(packages.map((pkg) => [relative(repo, pkg.dir), pkg] as const))('%s: LICENSE (the root one), a README, license MIT, the same engines', (_dir, pkg) => {
    expect(readFileSync(join(pkg.dir, 'LICENSE'), 'utf8'), `copy the root LICENSE into ${relative(repo, pkg.dir)}`).toBe(license);
    const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${pkg.manifest.name.replace(/[/@-]/g, '\\$&')}`));
    expect(readme.length).toBeGreaterThan(300);
    expect(pkg.manifest.license).toBe('MIT');
    expect(pkg.manifest.engines?.node).toBe(rootManifest.engines.node);
  });

  it('the README states the supported and the tested Node versions, as engines does', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    expect(rootManifest.engines.node).toBe('>=20.19');
    expect(readme).toContain('Node 20.19');
    expect(readme).toMatch(/tested on Node 20 and 24/i);
    expect(readme).toMatch(/@types\/node/);
    expect(readme).toMatch(/node16.*nodenext.*bundler/s);
  });

  it('cites no document outside the repository, in docs or code', () => {
    // Spelled in pieces so this file does not match itself.
    const outside = [['RELIABILITY', '.md'].join(''), ['RELIABILITY', ' '].join(''), ['..', '/shared/'].join(''), ['/work', '/shared'].join('')];
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(md|ts|mts|mjs|js|json|ya?ml)$/.test(file) && !file.endsWith('pnpm-lock.yaml'));
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(repo, file), 'utf8');
      } catch {
        continue; // deleted in the working tree
      }
      for (const needle of outside) if (text.includes(needle)) found.push(`${file}: ${needle}`);
    }
    expect(found).toEqual([]);
  });
});
