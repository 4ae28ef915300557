import type { CliFlags } from './cli-flags.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { sessionsDir, workspaceSessions } from './session-store.js';

/**
 * `weir sessions gc`: removes the image blobs no session of the workspace names any more. Safe while
 * another weir runs in the folder: an image written or reused within the last hour is kept (an
 * append may still be on its way). Resolves to the exit status.
 */
export async function collectSessionGarbage(flags: CliFlags): Promise<number> {
  const workspace = await resolveWorkspace(flags.workspace);
  const store = await workspaceSessions(workspace);
  const { removed, kept } = await store.collectGarbage!();
  const images = (count: number) => `${count} image${count === 1 ? '' : 's'}`;
  process.stdout.write(`Removed ${images(removed)} no session uses from ${sessionsDir(workspace)}; kept ${images(kept)}.\n`);
  return 0;
}
