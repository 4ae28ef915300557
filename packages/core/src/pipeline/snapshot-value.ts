/**
 * Takes an immutable snapshot of plain data, so a result can be shared with taps, observers and
 * the model without freezing anything its producer still owns (a tool's cache, a class instance,
 * a buffer it reuses).
 *
 * - Primitives are returned as they are: nothing to copy.
 * - Arrays and objects are copied and frozen; an object of any class becomes a plain object of its
 *   own enumerable string-keyed properties (its prototype and methods are not data).
 * - `Map`, `Set` and `Date` become read-only copies whose mutators throw; typed arrays,
 *   `DataView`s and `ArrayBuffer`s become read-only views of a copy of their bytes.
 * - An `Error` becomes a frozen `{ name, message }` (and its `code` when it has one).
 * - Functions are kept by reference, never walked or frozen (they are not data; the renderer names them).
 * - Shared references and cycles are kept as they were (each object is copied once).
 *
 * Throws `RangeError` when the value nests deeper than `maxDepth`.
 */
export function snapshotValue<T>(value: T, maxDepth = DEFAULT_MAX_SNAPSHOT_DEPTH): T {
  if (typeof value !== 'object' || value === null) return value;
  // Plain data that is deep-frozen already is its own snapshot: nothing can change it, so it is
  // kept as it is (and keeps its identity, which a tool's renderer may key on).
  if (Object.isFrozen(value) && isDeepFrozenData(value, maxDepth)) return value;
  return copy(value, new Map(), 0, maxDepth) as T;
}

/** True when `root` and everything in it are frozen plain objects, arrays, primitives or functions. */
function isDeepFrozenData(root: object, maxDepth: number): boolean {
  const stack: [object, number][] = [[root, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (depth >= maxDepth || !Object.isFrozen(node)) return false;
    const proto = Object.getPrototypeOf(node);
    if (!Array.isArray(node) && proto !== Object.prototype && proto !== null) return false;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** The bytes behind a read-only byte snapshot (for the renderer), or `undefined` for any other value. */
export function snapshotBytes(value: unknown): ArrayBufferView | ArrayBuffer | undefined {
  return typeof value === 'object' && value !== null ? byteSnapshots.get(value) : undefined;
}

const byteSnapshots = new WeakMap<object, ArrayBufferView | ArrayBuffer>();

/** How deep a tool's value may nest before it is refused as `INVALID_OUTPUT`. */
export const DEFAULT_MAX_SNAPSHOT_DEPTH = 1_000;

function copy(value: unknown, seen: Map<object, unknown>, depth: number, maxDepth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth >= maxDepth) throw new RangeError(`the value nests deeper than ${maxDepth} levels`);
  const next = depth + 1;

  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let index = 0; index < value.length; index += 1) out[index] = copy(value[index], seen, next, maxDepth);
    return Object.freeze(out);
  }
  if (value instanceof Map) {
    const entries: [unknown, unknown][] = [];
    const out = new ReadonlyMapSnapshot();
    seen.set(value, out);
    for (const [key, item] of value) entries.push([copy(key, seen, next, maxDepth), copy(item, seen, next, maxDepth)]);
    return out.seal(entries);
  }
  if (value instanceof Set) {
    const items: unknown[] = [];
    const out = new ReadonlySetSnapshot();
    seen.set(value, out);
    for (const item of value) items.push(copy(item, seen, next, maxDepth));
    return out.seal(items);
  }
  if (value instanceof Date) {
    const out = Object.freeze(new ReadonlyDateSnapshot(value.getTime()));
    seen.set(value, out);
    return out;
  }
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    const out = Object.freeze(typeof code === 'string' ? { name: value.name, message: value.message, code } : { name: value.name, message: value.message });
    seen.set(value, out);
    return out;
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    const out = readonlyBytes(value);
    seen.set(value, out);
    return out;
  }

  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen, next, maxDepth);
  return Object.freeze(out);
}

function refuse(what: string): never {
  throw new TypeError(`${what}: this value is a read-only snapshot of a tool result`);
}

/** A `Map` filled once; `set`, `delete` and `clear` throw afterwards. */
class ReadonlyMapSnapshot<K, V> extends Map<K, V> {
  #sealed = false;
  seal(entries: readonly [K, V][]): this {
    for (const [key, item] of entries) super.set(key, item);
    this.#sealed = true;
    return Object.freeze(this);
  }
  override set(key: K, item: V): this {
    if (this.#sealed) refuse('Map.prototype.set');
    return super.set(key, item);
  }
  override delete(_key: K): boolean {
    return refuse('Map.prototype.delete');
  }
  override clear(): void {
    refuse('Map.prototype.clear');
  }
}

/** A `Set` filled once; `add`, `delete` and `clear` throw afterwards. */
class ReadonlySetSnapshot<T> extends Set<T> {
  #sealed = false;
  seal(items: readonly T[]): this {
    for (const item of items) super.add(item);
    this.#sealed = true;
    return Object.freeze(this);
  }
  override add(item: T): this {
    if (this.#sealed) refuse('Set.prototype.add');
    return super.add(item);
  }
  override delete(_item: T): boolean {
    return refuse('Set.prototype.delete');
  }
  override clear(): void {
    refuse('Set.prototype.clear');
  }
}

/** A `Date` whose setters throw. */
class ReadonlyDateSnapshot extends Date {}
for (const name of Object.getOwnPropertyNames(Date.prototype)) {
  if (name.startsWith('set')) {
    Object.defineProperty(ReadonlyDateSnapshot.prototype, name, {
      value: () => refuse(`Date.prototype.${name}`),
      writable: false,
      configurable: false,
    });
  }
}
Object.freeze(ReadonlyDateSnapshot.prototype);

// Methods that write into a typed array, a DataView or an ArrayBuffer: refused on a snapshot.
const BYTE_MUTATORS = new Set(['copyWithin', 'fill', 'reverse', 'set', 'sort', 'transfer', 'transferToFixedLength', 'resize']);
// DataView's setInt8... and Buffer's write..., writeUInt32LE..., swap16... write too.
const isNamedWriter = (bytes: object, key: string) =>
  (bytes instanceof DataView && /^set[A-Z]/.test(key)) || (Buffer.isBuffer(bytes) && /^(write|swap)/.test(key));

/**
 * The language cannot freeze the elements of a typed array, so a snapshot of bytes is a proxy over
 * a private copy: reads work (indexing, `length`, iteration, `toString('base64')` on a Buffer),
 * writes and mutating methods throw.
 */
function readonlyBytes(value: ArrayBufferView | ArrayBuffer): object {
  let target: ArrayBufferView | ArrayBuffer;
  if (value instanceof ArrayBuffer) {
    target = value.slice(0);
  } else if (value instanceof DataView) {
    target = new DataView(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  } else if (Buffer.isBuffer(value)) {
    target = Buffer.from(value); // Buffer#slice shares memory; Buffer.from copies
  } else {
    const Typed = value.constructor as new (source: ArrayBufferView) => ArrayBufferView;
    target = new Typed(value);
  }
  const view = new Proxy(target, {
    get(bytes, key) {
      if (typeof key === 'string' && (BYTE_MUTATORS.has(key) || isNamedWriter(bytes, key))) {
        return () => refuse(`${bytes.constructor.name}.prototype.${key}`);
      }
      const item = Reflect.get(bytes, key, bytes) as unknown;
      return typeof item === 'function' ? (item as (...args: unknown[]) => unknown).bind(bytes) : item;
    },
    set: () => refuse('writing into a byte array'),
    defineProperty: () => refuse('defining a property'),
    deleteProperty: () => refuse('deleting a property'),
    setPrototypeOf: () => refuse('changing the prototype'),
  });
  byteSnapshots.set(view, target);
  return view;
}
