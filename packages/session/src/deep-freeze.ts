/**
 * Freezes `value` and everything reachable from it, in place, and returns it.
 * Typed arrays and array buffers cannot be frozen by the language; they are left as they are.
 * Cycles are fine: each object is visited once.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) freezeGraph(value, new Set());
  return value;
}

function freezeGraph(root: object, seen: Set<object>): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const current = stack.pop() as object;
    if (seen.has(current) || ArrayBuffer.isView(current) || current instanceof ArrayBuffer) continue;
    seen.add(current);
    Object.freeze(current);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      const child = descriptor && 'value' in descriptor ? descriptor.value : undefined;
      if ((typeof child === 'object' && child !== null) || typeof child === 'function') stack.push(child);
    }
  }
}
