import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted (by UTF-16 code units, at every depth) and no whitespace, so equal
 * values give equal text whatever order their keys were built in. Follows `JSON.stringify` otherwise:
 * `toJSON` is honoured, `undefined` and function properties are left out, non-finite numbers are `null`.
 * Throws `TypeError` on a cycle, a BigInt, or a top-level value JSON cannot hold.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, new Set());
  if (text === undefined) throw new TypeError(`canonicalJson cannot encode ${typeof value}.`);
  return text;
}

/**
 * The hash an approval decision is bound to: SHA-256 (hex) of the canonical JSON of the exact
 * arguments shown to the approver. Throws like `canonicalJson`. One-shot `crypto.hash`: a `Hash`
 * object per call cost several times the rest of sending a remote job, and both sides of a queue
 * compute it on every call.
 */
export function argumentsHash(args: unknown): string {
  return hash('sha256', canonicalJson(args), 'hex');
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'bigint') throw new TypeError('canonicalJson cannot encode a BigInt.');
  if (typeof value !== 'object') return undefined;
  if (ancestors.has(value)) throw new TypeError('canonicalJson cannot encode a cycle.');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => write(item, ancestors) ?? 'null').join(',')}]`;
  } else {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const inner = write((value as Record<string, unknown>)[key], ancestors);
      if (inner !== undefined) parts.push(`${JSON.stringify(key)}:${inner}`);
    }
    text = `{${parts.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}
