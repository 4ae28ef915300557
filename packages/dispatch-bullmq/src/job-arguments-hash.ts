import { hash } from 'node:crypto';
import { canonicalJson } from '@weir/core';

/**
 * The core's `argumentsHash` (SHA-256, hex, of the canonical JSON of the arguments), computed with
 * one-shot `crypto.hash`: the same digest without a `Hash` object per call, which cost several
 * times the rest of sending a job. Both sides of the queue compute it, so it is on every call's
 * path twice. Throws like `canonicalJson`.
 */
export function jobArgumentsHash(args: unknown): string {
  return hash('sha256', canonicalJson(args), 'hex');
}
