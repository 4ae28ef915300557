/**
 * A file a loader skipped or read only in part, and why, in one line. Loaders return these beside
 * what they loaded: one bad file never hides the others, and the CLI shows each.
 */
export interface LoadProblem {
  readonly file: string;
  readonly reason: string;
}

/** Where a loaded file came from, as a harness labels its roots (`project`, `user`, `claude`, `plugin my-bundle`). */
export type SourceLabel = string;

/** A folder a loader reads, and the label its files carry in `/context` and in problems. */
export interface ExtensionRoot {
  readonly dir: string;
  readonly source: SourceLabel;
}
