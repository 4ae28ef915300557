// Docs that run: every TypeScript block of README.md and docs/*.md is type-checked and run, as a user
// who pastes it would. The blocks are written into examples/first-agent/.snippets/ (git-ignored): a
// script there resolves @weir/* through the example's dependencies, which is also where the README
// tells users to put their own scripts. Before a block:
// - `<!-- run in: <folder> -->` runs it from that example folder instead (for the packages only that
//   folder depends on); it is type-checked there too;
// - a line "`examples/<path>.ts`:" says the block is that program: it must be the file's exact text,
//   and the file's own test runs it;
// - `<!-- not run: <why> -->` marks a fragment that is not a program; those stay few.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishablePackages, repo } from './publishable-packages.js';

interface Snippet {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
  /** The folder it runs from and is written into (`<folder>/.snippets/`). */
  readonly folder: string;
  readonly file: string;
}

interface ShownProgram {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
  readonly path: string;
}

const MAX_FRAGMENTS = 3;
const FENCE = /^```(ts|typescript)\s*$/;
const NOT_RUN = /^<!--\s*not run:\s*(\S.*?)\s*-->$/;
const RUN_IN = /^<!--\s*run in:\s*(examples\/[\w-]+)\s*-->$/;
const SHOWN = /^`(examples\/[\w/.-]+\.ts)`:$/;
const DEFAULT_FOLDER = 'examples/first-agent';
const tsxCli = join(repo, 'node_modules/tsx/dist/cli.mjs');
const tscCli = join(repo, 'node_modules/typescript/bin/tsc');

const docs = ['README.md', ...readdirSync(join(repo, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const snippets: Snippet[] = [];
const shown: ShownProgram[] = [];
const fragments: string[] = [];
for (const doc of docs) {
  const lines = readFileSync(join(repo, doc), 'utf8').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    if (!FENCE.test(lines[index]!)) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end === -1) throw new Error(`${doc}:${index + 1}: a code block that never closes`);
    const previous = lines.slice(0, index).reverse().find((line) => line.trim() !== '');
    const code = lines.slice(index + 1, end).join('\n');
    const notRun = previous === undefined ? null : NOT_RUN.exec(previous.trim());
    const program = previous === undefined ? null : SHOWN.exec(previous.trim());
    if (notRun !== null) fragments.push(`${doc}:${index + 1} (${notRun[1]})`);
    else if (program !== null) shown.push({ doc, line: index + 1, code, path: program[1]! });
    else {
      const folder = (previous === undefined ? null : RUN_IN.exec(previous.trim()))?.[1] ?? DEFAULT_FOLDER;
      const name = `${doc.replace(/[/.]/g, '-')}-${index + 1}.ts`;
      snippets.push({ doc, line: index + 1, code, folder, file: join(repo, folder, '.snippets', name) });
    }
    index = end;
  }
}

const folders = [...new Set(snippets.map((snippet) => snippet.folder))];
const snippetDir = (folder: string) => join(repo, folder, '.snippets');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'weir-snippets-'));
  for (const folder of folders) {
    rmSync(snippetDir(folder), { recursive: true, force: true });
    mkdirSync(snippetDir(folder), { recursive: true });
  }
  for (const snippet of snippets) writeFileSync(snippet.file, `${snippet.code}\nexport {};\n`);
  // Types from the packages' sources (as the tests and tsx see them), not from a dist that may be stale.
  for (const folder of folders) writeTsconfig(snippetDir(folder));
});
afterAll(() => {
  for (const folder of folders) rmSync(snippetDir(folder), { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

function writeTsconfig(dir: string): void {
  const paths: Record<string, string[]> = {};
  for (const { dir: packageDir, manifest } of publishablePackages()) {
    const exports = (manifest as { exports?: Record<string, { '@weir/source'?: string } | string> }).exports ?? {};
    for (const [key, target] of Object.entries(exports)) {
      if (typeof target === 'object' && target['@weir/source'] !== undefined) {
        paths[key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`] = [relative(dir, join(packageDir, target['@weir/source']))];
      }
    }
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { noEmit: true, paths }, include: ['*.ts'] }, null, 2));
}

describe('docs that run', () => {
  it('finds the TypeScript blocks, and keeps fragments rare', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(5);
    expect(fragments.length, fragments.join('\n')).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it.each(shown.map((program) => [`${program.doc}:${program.line}`, program] as const))('%s is the program it names, as it is on disk', (_where, program) => {
    expect(readFileSync(join(repo, program.path), 'utf8').trimEnd()).toBe(program.code.trimEnd());
  });

  it('every block type-checks (strict, nodenext), as pasted into a script in examples/first-agent/', async () => {
    let result = '';
    for (const folder of folders) {
      result += await promisify(execFile)(process.execPath, [tscCli, '-p', join(snippetDir(folder), 'tsconfig.json')], { cwd: repo }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
    }
    // Name each error by its document and line, not by the generated file.
    const located = result.replace(/^(\S+?\.ts)\((\d+),\d+\)/gm, (_all, file: string, line: string) => {
      const snippet = snippets.find((candidate) => candidate.file.endsWith(file.split('/').pop()!));
      return snippet === undefined ? `${file}:${line}` : `${snippet.doc}:${snippet.line + Number(line)}`;
    });
    expect(located).toBe('');
  }, 180_000);

  it.concurrent.each(snippets.map((snippet) => [`${snippet.doc}:${snippet.line}`, snippet] as const))('%s runs', async (_where, snippet) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OPENAI_')) env[name] = value;
    // From a scratch folder, so a block that writes (a session store) leaves the repository as it was;
    // a block that runs in an example folder runs from there, as its `package.json` resolves.
    const cwd = snippet.folder === DEFAULT_FOLDER ? scratch : join(repo, snippet.folder);
    const run = await promisify(execFile)(process.execPath, [tsxCli, '--conditions=@weir/source', snippet.file], { cwd, env, timeout: 60_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
    );
    expect(run.stderr.split('\n').slice(0, 8).join('\n')).not.toMatch(/Error/);
    expect(run.code).toBe(0);
  }, 90_000);
});
