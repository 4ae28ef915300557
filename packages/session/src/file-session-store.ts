import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { deepFreeze, HarnessError, isHarnessError, type Logger, type SessionMeta, type SessionRecord, type SessionRecovery } from '@weir/core';
import { silentLogger } from './silent-logger.js';
import { planFork } from './plan-fork.js';
import { prepareRecord } from './prepare-record.js';
import { encodeRecord } from './record-codec.js';
import { blobRefsOf, externalizeImages, inlineImages, type ImageBlob } from './image-blobs.js';
import { scanSessionLog, type LogDamage } from './scan-session-log.js';
import { nodeSessionFileSystem, O_APPEND, O_CREAT, O_EXCL, O_RDWR, type SessionFile, type SessionFileSystem } from './session-file-system.js';
import { assertSessionId, createSessionId, isValidSessionId } from './session-id.js';
import { acquireSessionLock, isProcessAlive, type SessionLock } from './session-lock.js';
import { fenced } from './fenced-error.js';
import { replaceFileDurably } from './replace-file-durably.js';
import type { CreateSessionOptions, ForkSessionOptions, OpenSessionOptions, SessionStore, SessionSummary } from './session-store.js';
import { byUpdatedDescending, summarizeSession } from './summarize-session.js';
import { pageOfSummaries } from './page-of-summaries.js';
import { WritableSession } from './writable-session.js';
import { writeFileDurably } from './write-file-durably.js';
import { collectBlobs, DEFAULT_BLOB_GRACE_MS } from './collect-blobs.js';

export interface FileSessionStoreOptions {
  /** Recoveries, stale locks and write failures are logged here. Default: silent. */
  readonly logger?: Logger;
  /** The clock for record times. Default: `new Date()`. */
  readonly now?: () => Date;
  /** The file operations. Default: the real file system. Tests inject failing writes and syncs here. */
  readonly fs?: SessionFileSystem;
  /** Whether the pid in a lock file is a live process. Default: `process.kill(pid, 0)` succeeds. */
  readonly processAlive?: (pid: number) => boolean;
  /**
   * How long `collectGarbage` keeps an image blob no session names after it was last written or
   * reused, so an append in flight never loses its image. Default: one hour.
   */
  readonly blobGraceMs?: number;
}

const LOG_SUFFIX = '.jsonl';

/**
 * A `SessionStore` with one append-only JSONL file per session in `dir` (created on first use):
 * `<id>.jsonl`, its lock `<id>.lock`, and `quarantine/` for copies of damaged files. See
 * docs/sessions.md for the format, the durability points and the recovery rules.
 *
 * Never throws; its methods reject with the `HarnessError`s listed on `SessionStore`. An I/O failure
 * while creating, opening or forking is `SESSION_WRITE_FAILED`; `read` and `list` reject with the
 * system error.
 */
export function createFileSessionStore(dir: string, options: FileSessionStoreOptions = {}): SessionStore {
  const root = resolve(dir);
  const fs = options.fs ?? nodeSessionFileSystem;
  const logger = options.logger ?? silentLogger();
  const now = options.now ?? (() => new Date());
  const processAlive = options.processAlive ?? isProcessAlive;
  const logPath = (id: string) => join(root, `${id}${LOG_SUFFIX}`);
  const lock = (id: string, takeOver = false) => acquireSessionLock(join(root, `${id}.lock`), { fs, logger, processAlive, takeOver });
  const epochPath = (id: string) => join(root, `${id}.epoch`);

  /** Hands out the session's next writer epoch (under its lock): the last one, kept in `<id>.epoch`, plus one. */
  const nextEpoch = async (id: string): Promise<number> => {
    let last = 0;
    try {
      const parsed = Number.parseInt(new TextDecoder().decode(await fs.readFile(epochPath(id))), 10);
      if (Number.isSafeInteger(parsed) && parsed > 0) last = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await replaceFileDurably(fs, epochPath(id), new TextEncoder().encode(`${last + 1}\n`));
    return last + 1;
  };
  const blobDir = join(root, 'blobs');
  const blobPath = (hex: string) => join(blobDir, hex);

  /** mkdir -p, then fsync the parent of every directory it created so the new names are durable. */
  const ensureDirectory = async (path: string) => {
    const created = await fs.mkdir(path);
    if (created === undefined) return;
    const parents: string[] = [];
    for (let current = path; ; current = dirname(current)) {
      parents.push(dirname(current));
      if (current === created || dirname(current) === current) break;
    }
    for (const parent of parents.reverse()) await fs.syncDirectory(parent);
  };

  const writer = (id: string, epoch: number, records: readonly SessionRecord[], file: SessionFile, held: SessionLock, recovery?: SessionRecovery) =>
    new WritableSession({
      id,
      epoch,
      records,
      now,
      logger,
      ...(recovery === undefined ? {} : { recovery }),
      storeImages: true,
      sink: {
        async write(bytes, _record, blobs) {
          // Each image is durable under its name before the line that names it is written.
          for (const blob of blobs) await storeBlob(blob);
          await writeOnce(file, bytes);
          // Checked after the write: a takeover replaces the lock before it copies the log to a new
          // inode, so a write whose check passes was in the log before that copy was read.
          if (!(await held.stillHeld())) throw fenced(id, epoch);
        },
        datasync: () => file.datasync(),
        async close() {
          try {
            await file.close();
          } finally {
            await held.release();
          }
        },
      },
    });

  /**
   * Writes an image's bytes to `blobs/<sha256>` durably (temp file, fdatasync, link, fsync of the
   * directory). Skipped, after touching it, when that name exists: a name only appears once its bytes are synced, and
   * the same bytes always get the same name, so one copy serves every record and session.
   */
  const storeBlob = async (blob: ImageBlob): Promise<void> => {
    const path = blobPath(blob.hex);
    // Reused: touched, so the collector sees it young and keeps it until the line naming it is written.
    if (await fs.touch(path).then(() => true, () => false)) return;
    await ensureDirectory(blobDir);
    try {
      await writeFileDurably(fs, path, blob.bytes);
    } catch (error) {
      // Written meanwhile by another session of this store: the same name holds the same bytes.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  };

  /**
   * The records as a reader gets them: each blob reference turned back into the image's base64. A
   * blob that is missing or does not match its name becomes a text note in the image's place, with a
   * warning: the rest of the session is still good, so it still opens.
   */
  const resolveBlobs = async (id: string, records: readonly SessionRecord[]): Promise<readonly SessionRecord[]> => {
    const found = new Map<string, { readonly data: string } | { readonly missing: string }>();
    let changed = false;
    const resolved: SessionRecord[] = [];
    for (const record of records) {
      const refs = blobRefsOf(record as unknown as Record<string, unknown>);
      if (refs.length === 0) {
        resolved.push(record);
        continue;
      }
      for (const hex of refs) {
        if (found.has(hex)) continue;
        let outcome: { readonly data: string } | { readonly missing: string };
        try {
          const bytes = await fs.readFile(blobPath(hex));
          outcome = createHash('sha256').update(bytes).digest('hex') === hex
            ? { data: Buffer.from(bytes).toString('base64') }
            : { missing: `its stored copy blobs/${hex} is damaged` };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          outcome = { missing: code === 'ENOENT' ? `its stored copy blobs/${hex} is missing` : `its stored copy blobs/${hex} cannot be read (${code ?? (error as Error).message})` };
        }
        if ('missing' in outcome) logger.warn({ sessionId: id, seq: record.seq, blob: hex, reason: outcome.missing }, 'session: an image of the session cannot be read, a note stands in its place');
        found.set(hex, outcome);
      }
      changed = true;
      resolved.push(deepFreeze(inlineImages(record as unknown as Record<string, unknown>, (hex) => found.get(hex) as { data: string }) as unknown as SessionRecord));
    }
    return changed ? resolved : records;
  };

  /** Keeps a durable copy of a damaged file (named by its content hash, so one copy per content). */
  const quarantine = async (id: string, bytes: Uint8Array): Promise<string | undefined> => {
    const folder = join(root, 'quarantine');
    const path = join(folder, `${id}.${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}${LOG_SUFFIX}`);
    try {
      await ensureDirectory(folder);
      await writeFileDurably(fs, path, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        logger.error({ sessionId: id, err: error }, 'session: could not keep a copy of a damaged session');
        return undefined;
      }
    }
    return path;
  };

  const corrupt = async (id: string, bytes: Uint8Array, damage: LogDamage): Promise<HarnessError> => {
    const copy = await quarantine(id, bytes);
    logger.error({ sessionId: id, ...damage, copy }, 'session: damaged in the middle, not opened');
    return new HarnessError(
      'SESSION_CORRUPT',
      `Session ${id} is damaged at line ${damage.line} (byte ${damage.offset}): ${damage.reason}. A crash cannot cause this, so nothing was ` +
        `changed or dropped. ${copy === undefined ? 'Keeping a copy failed (see the log).' : `A copy is kept at ${copy}.`} ` +
        `The lines before it are intact; repair or remove ${logPath(id)} to go on.`,
    );
  };

  const readLog = async (id: string): Promise<Uint8Array> => {
    assertSessionId(id);
    try {
      return await fs.readFile(logPath(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in ${root}.`);
      throw error;
    }
  };

  /** Says "exists" rather than "locked" for a session open elsewhere; the exclusive create settles any race after. */
  const refuseExisting = async (id: string) => {
    if (await fs.stat(logPath(id)).then(() => true, () => false)) throw exists(id);
  };

  const collectGarbage = () =>
    guard('collecting unused image blobs', () => collectBlobs({ fs, root, graceMs: options.blobGraceMs ?? DEFAULT_BLOB_GRACE_MS, logger }));

  const read = async (id: string): Promise<readonly SessionRecord[]> => {
    const bytes = await readLog(id);
    const scan = scanSessionLog(bytes, id);
    if (!scan.ok) throw await corrupt(id, bytes, scan.damage);
    return Object.freeze([...(await resolveBlobs(id, scan.records))]);
  };

  return {
    async create(create: CreateSessionOptions = {}) {
      const at = now();
      const id = create.id ?? createSessionId(at.getTime());
      assertSessionId(id);
      const meta: SessionMeta = { type: 'session', id, created: at.toISOString(), ...(create.title === undefined ? {} : { title: create.title }) };
      const first = prepareRecord(meta, 1, meta.created);
      return guard(`creating session ${id}`, async () => {
        await ensureDirectory(root);
        await refuseExisting(id);
        const held = await lock(id);
        try {
          let file: SessionFile;
          let epoch: number;
          try {
            file = await fs.open(logPath(id), O_RDWR | O_APPEND | O_CREAT | O_EXCL, 0o600);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(id);
            throw error;
          }
          try {
            await writeOnce(file, first.bytes);
            await file.datasync();
            await fs.syncDirectory(root);
            epoch = await nextEpoch(id);
          } catch (error) {
            // Never acknowledged: leave no half-created session behind.
            await file.close().catch(() => undefined);
            await fs.unlink(logPath(id)).catch(() => undefined);
            throw error;
          }
          return writer(id, epoch, [first.record], file, held);
        } catch (error) {
          await held.release();
          throw error;
        }
      });
    },

    async open(id, open: OpenSessionOptions = {}) {
      assertSessionId(id);
      // SESSION_NOT_FOUND before touching any lock (or creating the directory).
      await fs.stat(logPath(id)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in ${root}.`);
      });
      return guard(`opening session ${id}`, async () => {
        const held = await lock(id, open.takeOver === true);
        let file: SessionFile | undefined;
        try {
          const epoch = await nextEpoch(id);
          // The previous writer may still hold the log open: give the log a new inode, so whatever
          // it writes from now on goes to a file nobody reads (and its check after the write fails).
          if (held.tookOver) await replaceFileDurably(fs, logPath(id), await fs.readFile(logPath(id)));
          try {
            file = await fs.open(logPath(id), O_RDWR | O_APPEND);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in ${root}.`);
            throw error;
          }
          // Read under the lock, through the fd that will append: no writer can change it in between.
          const bytes = await file.readAll();
          const scan = scanSessionLog(bytes, id);
          if (!scan.ok) throw await corrupt(id, bytes, scan.damage);
          let records = await resolveBlobs(id, scan.records);
          let recovery: SessionRecovery | undefined;
          if (scan.torn) {
            // Cut before the next append, or the next record would be glued to the fragment and lost with it.
            await file.truncate(scan.torn.offset);
            await file.datasync();
            recovery = { offset: scan.torn.offset, droppedBytes: scan.torn.bytes, reason: scan.torn.reason };
            logger.warn({ sessionId: id, ...recovery }, 'session: cut off a torn tail (an unacknowledged write)');
          }
          if (records.length === 0) {
            // The process died while creating it, before the session record was durable.
            const at = now().toISOString();
            const first = prepareRecord({ type: 'session', id, created: at }, 1, at);
            await writeOnce(file, first.bytes);
            await file.datasync();
            records = [first.record];
            logger.warn({ sessionId: id }, 'session: the file had no session record; wrote a new one');
          }
          return writer(id, epoch, records, file, held, recovery);
        } catch (error) {
          await file?.close().catch(() => undefined);
          await held.release();
          throw error;
        }
      });
    },

    read,

    async delete(id) {
      assertSessionId(id);
      await guard(`deleting session ${id}`, async () => {
        if (!(await fs.stat(logPath(id)).then(() => true, () => false))) throw new HarnessError('SESSION_NOT_FOUND', `No session ${id} in ${root}.`);
        // Held while the files go: a live writer keeps its session (SESSION_LOCKED).
        const held = await lock(id);
        try {
          await fs.unlink(logPath(id));
          await fs.unlink(epochPath(id)).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          });
          await fs.syncDirectory(root);
        } finally {
          await held.release();
        }
      });
      return collectGarbage();
    },

    collectGarbage,

    async list(options) {
      let names: string[];
      try {
        names = await fs.readdir(root);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return pageOfSummaries([], options);
        throw error;
      }
      const summaries: SessionSummary[] = [];
      for (const name of names) {
        const id = name.slice(0, -LOG_SUFFIX.length);
        if (!name.endsWith(LOG_SUFFIX) || !isValidSessionId(id)) continue;
        try {
          const bytes = await fs.readFile(logPath(id));
          const scan = scanSessionLog(bytes, id);
          const records = scan.ok ? scan.records : [];
          const fallback = scan.ok && records.length > 0 ? '' : new Date((await fs.stat(logPath(id))).mtimeMs).toISOString();
          summaries.push(summarizeSession(id, records, fallback, !scan.ok));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
          throw error;
        }
      }
      return pageOfSummaries(summaries.sort(byUpdatedDescending), options);
    },

    async fork(sourceId, fork: ForkSessionOptions = {}) {
      const { id, meta, copied } = planFork(sourceId, await read(sourceId), fork, now());
      const first = prepareRecord(meta, 1, meta.created);
      // The copies name their images by reference too; the blobs are normally there already (same store).
      const stored = copied.map((record) => externalizeImages(record as unknown as Record<string, unknown>));
      return guard(`forking session ${sourceId} into ${id}`, async () => {
        await ensureDirectory(root);
        await refuseExisting(id);
        const held = await lock(id);
        try {
          const epoch = await nextEpoch(id);
          try {
            for (const { blobs } of stored) for (const blob of blobs) await storeBlob(blob);
            // All or nothing: a crash mid-fork leaves no half-copied session.
            await writeFileDurably(fs, logPath(id), Buffer.concat([first.bytes, ...stored.map((record) => encodeRecord(record.stored))]));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(id);
            throw error;
          }
          const file = await fs.open(logPath(id), O_RDWR | O_APPEND);
          return writer(id, epoch, [first.record, ...copied], file, held);
        } catch (error) {
          await held.release();
          throw error;
        }
      });
    },
  };
}

const exists = (id: string) => new HarnessError('SESSION_EXISTS', `A session with id ${id} already exists.`);

/** One record, one write(2). A short write leaves a torn line; it is a failure like ENOSPC, never continued. */
async function writeOnce(file: SessionFile, bytes: Uint8Array): Promise<void> {
  const written = await file.write(bytes);
  if (written !== bytes.byteLength) {
    throw Object.assign(new Error(`short write: ${written} of ${bytes.byteLength} bytes`), { code: 'ESHORTWRITE' });
  }
}

/** Runs a store step; a system error becomes `SESSION_WRITE_FAILED`, a `HarnessError` passes through. */
async function guard<T>(doing: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isHarnessError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    throw new HarnessError('SESSION_WRITE_FAILED', `${doing} failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
