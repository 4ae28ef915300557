import { createHash } from 'node:crypto';
import { HarnessError } from '../harness-error.js';

/** Joins a namespace and a tool's own name: `github` and `create_issue` make `github__create_issue`. */
export const NAMESPACE_SEPARATOR = '__';

const MAX_NAME = 64;
const ILLEGAL = /[^a-zA-Z0-9_-]/g;
const HASH_CHARS = 8;

/**
 * The registry name of a tool that a plugin brings from elsewhere (an MCP server, a remote
 * registry) under `namespace`: `<namespace>__<name>`, legal whatever the two hold. Characters a
 * tool name cannot have become `_`; a result longer than 64 characters keeps its start and ends
 * with `_` and 8 hex digits of the SHA-256 of the two originals, so two long names that share a
 * start still differ. The same inputs always give the same name. Throws `INVALID_TOOL_NAME` when
 * either part is empty or the namespace leaves no room for a name.
 */
export function namespacedName(namespace: string, name: string): string {
  if (typeof namespace !== 'string' || namespace === '') throw new HarnessError('INVALID_TOOL_NAME', `A tool namespace must be a non-empty string, got ${JSON.stringify(namespace)}.`);
  if (typeof name !== 'string' || name === '') throw new HarnessError('INVALID_TOOL_NAME', `A namespaced tool needs a non-empty name, got ${JSON.stringify(name)} (namespace "${namespace}").`);
  const prefix = namespace.replace(ILLEGAL, '_') + NAMESPACE_SEPARATOR;
  // The namespace keeps at most half the budget: the tool's own name is what tells tools apart.
  if (prefix.length > MAX_NAME / 2) {
    throw new HarnessError('INVALID_TOOL_NAME', `Tool namespace "${namespace}" is too long: at most ${MAX_NAME / 2 - NAMESPACE_SEPARATOR.length} characters, so a tool name fits in ${MAX_NAME}.`);
  }
  const joined = prefix + name.replace(ILLEGAL, '_');
  if (joined.length <= MAX_NAME && joined === `${namespace}${NAMESPACE_SEPARATOR}${name}`) return joined;
  // Changed characters or an overlong name: a hash of the originals keeps distinct inputs distinct
  // (`a.b` and `a_b` would otherwise both become `a_b`).
  const hash = createHash('sha256').update(`${namespace}\u0000${name}`).digest('hex').slice(0, HASH_CHARS);
  return `${joined.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}
