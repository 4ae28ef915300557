import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { weirHome } from '../weir-home.js';
import { BundleError } from './bundle-error.js';

/** Whose a bundle is: the user's (every workspace) or one project's. */
export type BundleScope = 'user' | 'project';

/** One added bundle, as `weir plugin add` recorded it. */
export interface BundleRecord {
  readonly name: string;
  /** A folder given by path, or an npm package. */
  readonly source: 'folder' | 'npm';
  /** What was given to `weir plugin add` (a path, a package name, a tarball). */
  readonly spec: string;
  /** The bundle's folder, absolute. */
  readonly root: string;
}

/** A records file, and the folder its relative roots are taken from. */
export interface RecordsPlace {
  readonly scope: BundleScope;
  readonly file: string;
  readonly base: string;
}

/** The user's records: `<weir home>/plugins.json`. Their npm bundles are installed in `<weir home>/plugins/`. */
export function userRecords(env: NodeJS.ProcessEnv): RecordsPlace {
  const home = weirHome(env);
  return { scope: 'user', file: join(home, 'plugins.json'), base: home };
}

/** Where `weir plugin add` installs the user's npm bundles (an npm prefix). */
export function userBundlesPrefix(env: NodeJS.ProcessEnv): string {
  return join(weirHome(env), 'plugins');
}

/** A project's records: `<workspace>/.weir/plugins.json`, meant to be committed (paths inside the project are kept relative). */
export function projectRecords(workspace: string): RecordsPlace {
  return { scope: 'project', file: join(workspace, '.weir', 'plugins.json'), base: workspace };
}

/**
 * Reads a records file: `{ "plugins": [{ "name", "source", "spec", "root" }] }`; a missing file has
 * none. A relative `root` is taken from the place's base (the project, or the weir home). Throws `BundleError` naming the file when it is not that shape.
 */
export async function readBundleRecords(place: RecordsPlace): Promise<BundleRecord[]> {
  const { file, base } = place;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new BundleError(`The plugin records ${file} cannot be read: ${(error as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BundleError(`The plugin records ${file} are not JSON: ${(error as Error).message}.`);
  }
  const list = (parsed as { plugins?: unknown })?.plugins;
  if (!Array.isArray(list)) throw new BundleError(`The plugin records ${file} are not valid: expected { "plugins": [...] }.`);
  return list.map((entry: unknown, index) => {
    const record = entry as Partial<Record<keyof BundleRecord, unknown>>;
    const valid = typeof record?.name === 'string' && (record.source === 'folder' || record.source === 'npm') && typeof record.spec === 'string' && typeof record.root === 'string';
    if (!valid) throw new BundleError(`The plugin records ${file} are not valid: plugins[${index}] needs "name", "source" (folder or npm), "spec" and "root".`);
    return { name: record.name as string, source: record.source as BundleRecord['source'], spec: record.spec as string, root: resolve(base, record.root as string) };
  });
}

/** Writes `records` to `file` whole (a temporary file renamed), roots inside its workspace kept relative. */
export async function writeBundleRecords(place: RecordsPlace, records: readonly BundleRecord[]): Promise<void> {
  const { file, base } = place;
  const plugins = records.map((record) => {
    const rel = relative(base, record.root);
    const inside = rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
    return { ...record, root: inside ? rel : record.root };
  });
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ plugins }, null, 2)}\n`);
  await rename(temporary, file);
}

