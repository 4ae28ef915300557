import type { PathIntent, Sandbox, ToolArguments } from '@weir/core';

/** One path the call names, in the forms rules match against. */
export interface PathArgument {
  /** Where it sits in the arguments: `path`, or `paths[2]` for an array. */
  readonly argument: string;
  /** The value exactly as the model sent it; `undefined` when it is not a string. */
  readonly literal: string | undefined;
  /** The canonical physical path inside the workspace, when the sandbox accepted it. */
  readonly canonical: { readonly path: string; readonly relativePath: string } | undefined;
  /** Why there is no canonical form: no sandbox is loaded, the sandbox refused it, or it is not a string. */
  readonly refusal: { readonly kind: 'no-sandbox' | 'refused' | 'not-a-string'; readonly message: string } | undefined;
}

/**
 * Collects the values of the arguments named in `names` (a string, or an array of strings) and
 * resolves each through the sandbox, trying each intent in turn (`['read', 'list']`: a reading
 * tool may be given a directory, which is resolved as one, links followed). Never throws for a refused path: the refusal is recorded and
 * rules decide what it means. A sandbox that throws is a defect and rejects (the guard fails closed).
 */
export async function resolvePathArguments(
  args: ToolArguments,
  names: readonly string[],
  sandbox: Sandbox | undefined,
  intent: PathIntent | readonly PathIntent[],
): Promise<readonly PathArgument[]> {
  const intents: readonly PathIntent[] = typeof intent === 'string' ? [intent] : intent;
  const found: { argument: string; value: unknown }[] = [];
  for (const name of names) {
    if (!Object.hasOwn(args, name)) continue;
    const value = args[name];
    if (Array.isArray(value)) value.forEach((item, index) => found.push({ argument: `${name}[${index}]`, value: item }));
    else found.push({ argument: name, value });
  }
  return Promise.all(found.map(({ argument, value }) => resolveOne(argument, value, sandbox, intents)));
}

async function resolveOne(argument: string, value: unknown, sandbox: Sandbox | undefined, intents: readonly PathIntent[]): Promise<PathArgument> {
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
