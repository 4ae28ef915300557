import { join } from 'node:path';
import type { Session } from '@weir/core';
import type { SessionStore } from '@weir/session';

/** Where a workspace's sessions live: `<workspace>/.weir/sessions`. */
export function sessionsDir(workspace: string): string {
  return join(workspace, '.weir', 'sessions');
}

/** One session's file in the workspace's store (`@weir/session`'s file store names it `<id>.jsonl`): hooks get it as `transcript_path`. */
export function sessionFile(workspace: string, id: string): string {
  return join(sessionsDir(workspace), `${id}.jsonl`);
}

/** Where one session's checkpoints live: `<workspace>/.weir/sessions/<id>.checkpoints`. */
export function checkpointsDir(workspace: string, id: string): string {
  return join(sessionsDir(workspace), `${id}.checkpoints`);
}

/** The workspace's session store (`@weir/session`'s file store, loaded when first needed). */
export async function workspaceSessions(workspace: string): Promise<SessionStore> {
  const { createFileSessionStore } = await import('@weir/session');
  return createFileSessionStore(sessionsDir(workspace));
}

/** Which session to open: a new one, the last one (`--continue`), or a given one (`--resume <id>`). */
export interface SessionChoice {
  readonly continue: boolean;
  readonly resume: string | undefined;
  /** For a new session's title. */
  readonly title?: string | undefined;
}

/**
 * Opens the chosen session. `--continue` with no session yet starts a new one and says so. The
 * store's errors (no such session, locked by another weir, damaged) reject with its message.
 */
export async function openSession(store: SessionStore, choice: SessionChoice, say: (line: string) => void): Promise<{ session: Session; resumed: boolean }> {
  if (choice.resume !== undefined) return { session: await store.open(choice.resume), resumed: true };
  if (choice.continue) {
    const last = (await store.list()).filter((summary) => !summary.corrupt).sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0))[0];
    if (last !== undefined) return { session: await store.open(last.id), resumed: true };
    say('[session] no earlier session in this workspace: starting a new one');
  }
  const title = choice.title?.replace(/\s+/g, ' ').trim().slice(0, 80);
  return { session: await store.create(title ? { title } : {}), resumed: false };
}
