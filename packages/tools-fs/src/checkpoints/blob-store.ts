import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const { O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_RDONLY } = constants;
/** Blobs up to this size are written synchronously. */
const SYNC_BYTES = 256 * 1024;

/** The SHA-256 of `bytes`, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * File contents kept once each, named by their SHA-256 (`<dir>/<hex>`). A put writes a unique
 * temporary file and renames it to its name, so a name always holds its whole bytes (after a
 * process crash; `sync()` makes them survive a power cut too). Puts are not synced one by one:
 * checkpoints are written on a tool's hot path, and `sync()` runs where durability is needed
 * (before a rewind's journal, at the end of a turn).
 */
export class BlobStore {
  readonly dir: string;
  readonly #known = new Set<string>();
  /** Blobs to sync at the next `sync()`, and those synced already. */
  readonly #unsynced = new Set<string>();
  readonly #synced = new Set<string>();

  constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * Stores `bytes` (once per content) and returns their hash. A blob put with `durable: false` (the
   * shell snapshot's copy of a file no checkpoint names yet) is left out of `sync()` until
   * `needDurable` names it. Throws a system error.
   */
  async put(bytes: Uint8Array, options: { readonly durable?: boolean } = {}): Promise<string> {
    const hash = sha256(bytes);
    if (!this.#known.has(hash)) await this.#write(hash, bytes);
    if (options.durable !== false) this.needDurable(hash);
    return hash;
  }

  async #write(hash: string, bytes: Uint8Array): Promise<void> {
    const target = join(this.dir, hash);
    const temp = join(this.dir, `.${hash.slice(0, 16)}-${randomBytes(6).toString('hex')}.tmp`);
    // A small blob is written with synchronous calls: each promise-based step is a trip to the
    // thread pool, several times the cost of the call, and this runs before a tool's every first write.
    if (bytes.byteLength <= SYNC_BYTES) {
      this.#putSync(temp, target, bytes);
      this.#known.add(hash);
      return;
    }
    let handle: FileHandle | undefined;
    try {
      handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(this.dir, { recursive: true });
      handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    }
    try {
      await handle.writeFile(bytes);
    } catch (error) {
      await handle.close();
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await handle.close();
    await rename(temp, target);
    this.#known.add(hash);
  }

  #putSync(temp: string, target: string, bytes: Uint8Array): void {
    let fd: number;
    try {
      fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(this.dir, { recursive: true });
      fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    }
    try {
      writeFileSync(fd, bytes);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    renameSync(temp, target);
  }

  /** Makes the next `sync()` take the blob named `hash` (one a checkpoint now names). Never throws. */
  needDurable(hash: string): void {
    if (!this.#synced.has(hash)) this.#unsynced.add(hash);
  }

  /** True when a blob named `hash` is in the store (its bytes are checked when read, not here). Never throws. */
  has(hash: string): boolean {
    return this.#known.has(hash) || existsSync(join(this.dir, hash));
  }

  /** The bytes stored under `hash`, checked against it; `undefined` when missing or damaged. */
  async get(hash: string): Promise<Buffer | undefined> {
    try {
      const bytes = await readFile(join(this.dir, hash));
      return sha256(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Makes every blob put so far (but those put with `durable: false` and not needed since) durable: each one's data, then the directory's names. Throws a system error. */
  async sync(): Promise<void> {
    if (this.#unsynced.size === 0) return;
    for (const hash of this.#unsynced) {
      // One gone from the store (removed by hand) is reported when a rewind reads it.
      await syncPath(join(this.dir, hash), O_RDONLY).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      this.#synced.add(hash);
    }
    this.#unsynced.clear();
    await syncPath(this.dir, O_RDONLY | O_DIRECTORY);
  }
}

async function syncPath(path: string, flags: number): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
