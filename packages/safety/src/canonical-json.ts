import { createHash } from 'node:crypto';

/**
 * Serialises a JSON value with object keys sorted at every depth, so two argument objects that
 * differ only in key order give the same text. Follows `JSON.stringify` for everything else
 * (`undefined` properties are dropped, non-finite numbers become `null`).
 * Throws `TypeError` on a cycle or a value JSON cannot hold (a BigInt): such arguments cannot be
 * bound to a decision, and the guard that asked fails closed.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

/** The SHA-256 (hex) of `canonicalJson(value)`: what a decision is bound to. */
export function argumentsHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function write(value: unknown, ancestors: Set<object>): string {
  if (typeof value !== 'object' || value === null) {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
    return text;
  }
  if (ancestors.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      // JSON.stringify writes null for array holes and for items it would drop from an object.
      return `[${value.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : write(item, ancestors))).join(',')}]`;
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return write(toJSON.call(value), ancestors);
    const entries: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      entries.push(`${JSON.stringify(key)}:${write(item, ancestors)}`);
    }
    return `{${entries.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
