import type { Disposer } from '../disposer.js';
import type { TapOptions } from './define-plugin.js';
import { tapWithDisposer, type TappableHook } from './hooks.js';

/**
 * One stage hook as the public sees it (`harness.hooks.x`, `ctx.hooks.x`): tapping with an undo,
 * and nothing else. tapable's own hook also offers `intercept`, its `taps` list and `call`: with
 * those, one plugin could rewrite or drop another plugin's taps, or run the stage itself. The facade
 * is frozen and holds the hook only in its closure.
 *
 * `defaultName` names a tap made without options; `record` keeps the undo (a plugin records it
 * under its name, so unloading removes the tap).
 */
export function hookFacade(hook: TappableHook, defaultName: string, record: (undo: Disposer) => Disposer, beforeTap?: () => void): Readonly<Record<string, unknown>> {
  const method = (name: 'tap' | 'tapPromise' | 'tapAsync') => (optionsOrFn: unknown, maybeFn?: unknown) => {
    beforeTap?.();
    const [options, fn] = typeof optionsOrFn === 'function' ? [defaultName, optionsOrFn] : [withDefaultName(optionsOrFn as TapOptions, defaultName), maybeFn];
    return record(tapWithDisposer(hook, name, options, fn));
  };
  const facade: Record<string, unknown> = { tap: method('tap') };
  if ('tapPromise' in hook) {
    facade.tapPromise = method('tapPromise');
    facade.tapAsync = method('tapAsync');
  }
  return Object.freeze(facade);
}

function withDefaultName(options: TapOptions, name: string): TapOptions {
  if (typeof options === 'string') return options;
  if (typeof options !== 'object' || options === null) return name;
  return { ...options, name: options.name ?? name };
}
