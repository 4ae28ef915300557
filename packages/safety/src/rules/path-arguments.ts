import type { PathIntent, Sandbox, ToolArguments, ToolTier } from '@weir/core';
import { findDeclaredPaths, type PathArgumentSpec } from './declared-paths.js';
import { changesFiles, type FileAction } from './file-actions.js';

/** One path the call names, in the forms rules match against. */
export interface PathArgument {
  /** Where it sits in the arguments: `path`, `paths[2]`, `edits[0].file_path`. */
  readonly argument: string;
  /** The value exactly as the model sent it (or the declared default); `undefined` when it is missing or not a string. */
  readonly literal: string | undefined;
  /** The canonical physical path inside the workspace, when the sandbox accepted it. */
  readonly canonical: { readonly path: string; readonly relativePath: string } | undefined;
  /** Why there is no canonical form: no sandbox is loaded, the sandbox refused it, it is missing, or it is not a string. */
  readonly refusal: { readonly kind: 'no-sandbox' | 'refused' | 'not-a-string' | 'missing'; readonly message: string } | undefined;
}

/** What a tool declares about files, as far as finding its paths goes. */
export interface DeclaredFiles {
  readonly action: FileAction;
  readonly paths: readonly (string | PathArgumentSpec)[];
}

/** A path to resolve, and how. */
interface Wanted {
  readonly argument: string;
  readonly value: unknown;
  readonly missing: boolean;
  readonly intents: readonly PathIntent[];
}

/**
 * The paths of a call, resolved through the sandbox. A tool that declares its files is read at
 * the declared places (nested ones and arrays too), an omitted argument taking its declared
 * default; any other tool at the top-level arguments named in `fallbackNames` (each a string or an
 * array of strings). A directory is resolved as a directory: a reading tool's path is tried as a
 * file, then as a directory; a declared `directory` only as one. Never throws for a refused path:
 * the refusal is recorded and rules decide what it means. A sandbox that throws is a defect and
 * rejects (the guard fails closed).
 */
export async function resolvePathArguments(
  args: ToolArguments,
  declared: DeclaredFiles | undefined,
  fallbackNames: readonly string[],
  tier: ToolTier,
  sandbox: Sandbox | undefined,
): Promise<readonly PathArgument[]> {
  const wanted: Wanted[] = [];
  if (declared !== undefined) {
    const changes = changesFiles(declared.action);
    const specs = declared.paths.map((spec): PathArgumentSpec => (typeof spec === 'string' ? { argument: spec } : spec));
    for (const found of findDeclaredPaths(args, specs)) {
      wanted.push({ argument: found.argument, value: found.value, missing: found.missing, intents: intentsFor(changes, found.spec.kind ?? 'file') });
    }
  } else {
    const intents: readonly PathIntent[] = tier === 'read-only' ? ['read', 'list'] : ['write'];
    for (const name of fallbackNames) {
      if (!Object.hasOwn(args, name)) continue;
      const value = args[name];
      if (Array.isArray(value)) value.forEach((item, index) => wanted.push({ argument: `${name}[${index}]`, value: item, missing: false, intents }));
      else wanted.push({ argument: name, value, missing: false, intents });
    }
  }
  return Promise.all(wanted.map((item) => resolveOne(item, sandbox)));
}

function intentsFor(changes: boolean, kind: 'file' | 'directory' | 'any'): readonly PathIntent[] {
  if (kind === 'directory') return ['list'];
  if (changes) return kind === 'any' ? ['write', 'list'] : ['write'];
  // A reading tool's file may be a directory after all: resolved as one, the rules still see where it leads.
  return ['read', 'list'];
}

async function resolveOne({ argument, value, missing, intents }: Wanted, sandbox: Sandbox | undefined): Promise<PathArgument> {
  if (missing) return { argument, literal: undefined, canonical: undefined, refusal: { kind: 'missing', message: `${argument} is missing and the tool declares no default` } };
  if (typeof value !== 'string') return { argument, literal: undefined, canonical: undefined, refusal: { kind: 'not-a-string', message: `${argument} is not a string` } };
  if (sandbox === undefined) return { argument, literal: value, canonical: undefined, refusal: { kind: 'no-sandbox', message: 'no workspace sandbox is loaded' } };
  let resolution = await sandbox.resolve(value, intents[0]!);
  for (const next of intents.slice(1)) {
    if (resolution.ok) break;
    const retry = await sandbox.resolve(value, next);
    // The first refusal is the one to report when no intent fits.
    if (retry.ok) resolution = retry;
  }
  if (!resolution.ok) return { argument, literal: value, canonical: undefined, refusal: { kind: 'refused', message: `the sandbox refused it (${resolution.code}: ${resolution.message})` } };
  // The root itself comes back as '' from path.relative; '.' is what a pattern author writes.
  const relativePath = resolution.relativePath === '' ? '.' : resolution.relativePath;
  return { argument, literal: value, canonical: { path: resolution.path, relativePath }, refusal: undefined };
}
