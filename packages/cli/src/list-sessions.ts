import type { CliFlags } from './cli-flags.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { sessionsDir, workspaceSessions } from './session-store.js';

/** `weir sessions`: the workspace's sessions, newest first, one line each. Resolves to the exit status. */
export async function listSessions(flags: CliFlags): Promise<number> {
  const workspace = await resolveWorkspace(flags.workspace);
  const store = await workspaceSessions(workspace);
  const sessions = [...(await store.list())].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  if (sessions.length === 0) {
    process.stdout.write(`No sessions in ${sessionsDir(workspace)} yet.\n`);
    return 0;
  }
  for (const summary of sessions) {
    const count = `${summary.messageCount} message${summary.messageCount === 1 ? '' : 's'}`;
    process.stdout.write(`${summary.id}  ${summary.updated}  ${count}  ${summary.corrupt ? '(damaged) ' : ''}${summary.title ?? ''}\n`.replace(/\s+\n$/, '\n'));
  }
  process.stdout.write(`Go on with one: weir --resume <id>, or weir --continue for the newest.\n`);
  return 0;
}
