import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { ToolJob } from './tool-job.js';

/** The shortest signing key accepted, in bytes: an HMAC-SHA256 key shorter than its output is weaker than it. */
export const MIN_SIGNING_KEY_BYTES = 32;

/**
 * The key agents and workers share to sign jobs: a string (its UTF-8 bytes) or bytes, at least
 * `MIN_SIGNING_KEY_BYTES` long. It must come from outside Redis (a secret store, the environment):
 * anyone who can write to Redis could otherwise sign what they enqueue.
 */
export type SigningKey = string | Uint8Array;

/** Checks the key and keeps it as a `KeyObject`. Throws `TypeError` naming `owner` on a missing or short key. */
export function signingKeyOf(value: unknown, owner: string): KeyObject {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value instanceof Uint8Array ? value : undefined;
  if (bytes === undefined) {
    throw new TypeError(`${owner}: signingKey is required (a string or bytes of at least ${MIN_SIGNING_KEY_BYTES} bytes, the same on the agent and every worker, kept outside Redis; make one with \`openssl rand -base64 32\`).`);
  }
  if (bytes.length < MIN_SIGNING_KEY_BYTES) throw new TypeError(`${owner}: signingKey must be at least ${MIN_SIGNING_KEY_BYTES} bytes, got ${bytes.length}.`);
  return createSecretKey(Buffer.from(bytes));
}

/** The fields of a job the signature covers. */
export type SignedFields = Omit<ToolJob, 'signature'>;

/**
 * HMAC-SHA256 (hex) over everything the worker acts on: the job format, tool, arguments (through
 * their hash; the worker recomputes it), call key and id, run, parent, attempt, tier and deadline.
 * The fields go in a fixed order as a JSON array, so no two jobs share the signed text.
 */
export function signToolJob(key: KeyObject, job: SignedFields): string {
  const text = JSON.stringify([job.v, job.toolName, job.argumentsHash, job.callId, job.callKey, job.runId ?? null, job.parentCallKey ?? null, job.attempt, job.tier, job.deadlineAt]);
  return createHmac('sha256', key).update(text).digest('hex');
}

/** True when `signature` is the job's signature under `key`; compared in constant time. */
export function verifyToolJob(key: KeyObject, job: SignedFields, signature: string): boolean {
  const expected = Buffer.from(signToolJob(key, job), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
