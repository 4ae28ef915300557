import { isRecord } from './is-record.js';

/**
 * Applies one streamed argument piece (`{ jsonPath: '$.a.b[0]', stringValue | numberValue |
 * boolValue | nullValue }`, as Vertex streams function-call arguments) to `args`: containers are made
 * on the way, and a string continues the string already at that path (its pieces arrive one by one,
 * the last one empty). A piece with a path it cannot read is ignored. Never throws.
 */
export function setAtJsonPath(args: Record<string, unknown>, piece: Record<string, unknown>): void {
  const keys = pathKeys(piece['jsonPath']);
  if (keys === undefined || keys.length === 0) return;
  let value: unknown;
  if (typeof piece['stringValue'] === 'string') value = piece['stringValue'];
  else if (typeof piece['numberValue'] === 'number') value = piece['numberValue'];
  else if (typeof piece['boolValue'] === 'boolean') value = piece['boolValue'];
  else if ('nullValue' in piece) value = null;
  else return;
  let container: Record<string, unknown> | unknown[] = args;
  for (let index = 0; index < keys.length - 1; index++) {
    const key = keys[index]!;
    const next: unknown = (container as Record<string | number, unknown>)[key];
    if (isRecord(next) || Array.isArray(next)) {
      container = next;
    } else {
      const made = typeof keys[index + 1] === 'number' ? [] : {};
      (container as Record<string | number, unknown>)[key] = made;
      container = made;
    }
  }
  const last = keys.at(-1)!;
  const slot = container as Record<string | number, unknown>;
  slot[last] = typeof value === 'string' && typeof slot[last] === 'string' ? `${slot[last] as string}${value}` : value;
}

/** `$.a.b[0]["c d"]` as `['a', 'b', 0, 'c d']`; undefined when it is not such a path. */
function pathKeys(path: unknown): (string | number)[] | undefined {
  if (typeof path !== 'string' || !path.startsWith('$')) return undefined;
  const keys: (string | number)[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\[["']([^"']*)["']\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    keys.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : match[3]!));
  }
  return keys;
}
