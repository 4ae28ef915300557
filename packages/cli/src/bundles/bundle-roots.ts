import type { Bundle } from './bundle.js';

/** A folder an `@weir/extensions` loader reads, labelled (its `ExtensionRoot`). */
export interface BundleRoot {
  readonly dir: string;
  readonly source: string;
}

/** The folders of skills, commands and agents the bundles ship, for the loaders of `@weir/extensions`. */
export interface BundleRoots {
  readonly skills: readonly BundleRoot[];
  readonly commands: readonly BundleRoot[];
  readonly agents: readonly BundleRoot[];
}

/**
 * The roots `loadSkills`, `loadCommands` and `loadAgentDefinitions` take for `bundles`, in order,
 * each labelled `plugin <name>` (what `/context` and a problem line show). They go after the
 * project's and the user's own roots, so a project's command of a name wins over a bundle's.
 */
export function bundleRoots(bundles: readonly Bundle[]): BundleRoots {
  const of = (pick: (bundle: Bundle) => readonly string[]) => bundles.flatMap((bundle) => pick(bundle).map((dir) => ({ dir, source: `plugin ${bundle.name}` })));
  return { skills: of((b) => b.skills), commands: of((b) => b.commands), agents: of((b) => b.agents) };
}
