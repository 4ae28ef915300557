import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pluginNames, type PluginNames } from './plugin-names.js';
import { packageManifest, typescriptConfig, type TemplateVersions } from './templates/package-manifest.js';
import { pluginSource, pluginTest, toolSource } from './templates/plugin-source.js';
import { changesetConfig, changesetReadme, gitignore, readme } from './templates/project-files.js';
import { skillFile } from './templates/skill.js';

export interface ScaffoldOptions {
  /** The folder to make the package in; it must be absent or empty. */
  readonly dir: string;
  /** The npm package name (default: the folder's name). */
  readonly name?: string;
  /** The versions the package depends on (default: this scaffolder's weir release). */
  readonly versions?: TemplateVersions;
}

export interface ScaffoldResult extends PluginNames {
  /** The package's folder, absolute. */
  readonly dir: string;
  /** The files written, relative to `dir`, in the order written. */
  readonly files: readonly string[];
}

/**
 * Writes a weir plugin package into `dir`: a tool, a skill, a test running the conformance kit,
 * a README and a changeset config. Rejects with one-line `Error` when a name is invalid or `dir`
 * exists and is not empty (nothing is written then).
 */
export async function scaffoldPlugin(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const dir = resolve(options.dir);
  const names = pluginNames(dir, options.name);
  const present = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new Error(`cannot use ${dir}: ${error.code === 'ENOTDIR' ? 'it is a file' : error.message}`);
  });
  if (present.length > 0) throw new Error(`${dir} is not empty (${present.length} entries); choose a new folder.`);
  const versions = options.versions ?? (await ownVersions());
  const files: readonly (readonly [string, string])[] = [
    ['package.json', packageManifest(names, versions)],
    ['tsconfig.json', typescriptConfig()],
    ['README.md', readme(names)],
    ['.gitignore', gitignore()],
    ['.changeset/config.json', changesetConfig()],
    ['.changeset/README.md', changesetReadme()],
    ['src/index.ts', pluginSource(names)],
    ['src/count-words-tool.ts', toolSource()],
    ['src/index.test.ts', pluginTest(names)],
    [`skills/${names.pluginName}/SKILL.md`, skillFile(names)],
  ];
  for (const [path, text] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text, { flag: 'wx' });
  }
  return { ...names, dir, files: files.map(([path]) => path) };
}

/** weir's packages are released together: a scaffolder of release X makes packages for core ^X. */
async function ownVersions(): Promise<TemplateVersions> {
  const { readFile } = await import('node:fs/promises');
  const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return { weirCore: `^${version}` };
}
