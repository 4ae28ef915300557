/** What a path is wanted for: containment rules differ (a write may name a file that does not exist). */
export type PathIntent = 'read' | 'list' | 'write';

/** A path inside the workspace, or the reason it was refused. */
export type PathResolution =
  | { readonly ok: true; readonly path: string; readonly relativePath: string }
  | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * The seam for path confinement. One plugin provides it (`ctx.sandbox.provide`); every tool and
 * policy that takes a path asks it, so there is one choke point.
 */
export interface Sandbox {
  /** The canonical workspace root. */
  readonly root: string;
  /** Resolves `path` (relative to the root, or absolute) to its canonical physical path inside the root. */
  resolve(path: string, intent: PathIntent): Promise<PathResolution>;
}
