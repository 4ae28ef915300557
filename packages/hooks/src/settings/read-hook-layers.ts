import { hookEventOf, HOOK_EVENTS, GEMINI_EVENTS } from '../events/hook-event.js';
import { compileMatcher } from '../tools/hook-matcher.js';
import type { HookEntry } from './hook-entry.js';
import type { HookLayer } from './hook-layer.js';
import { HooksError } from '../hooks-error.js';

/** Claude Code's default, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

const HANDLER_KEYS = new Set(['type', 'command', 'prompt', 'url', 'headers', 'model', 'timeout', 'failMode', 'shell', 'async', 'if', 'statusMessage', 'asyncRewake', 'once', 'name', 'description']);

/**
 * Reads the `hooks` of every layer into entries, in layer order (each file's own order kept).
 * A section that is not the format (not an object of event arrays, a group without `hooks`, a
 * handler without a command, a bad matcher) throws `HooksError` `INVALID_HOOKS` naming the file and
 * the place: a typo never silently drops a guard. Events and handler types weir does not run are
 * kept, with `skipped` saying why, so `/hooks` shows them.
 */
export function readHookLayers(layers: readonly HookLayer[]): HookEntry[] {
  const entries: HookEntry[] = [];
  for (const layer of layers) {
    if (layer.hooks === undefined || layer.hooks === null) continue;
    const bad = (where: string, why: string) => new HooksError('INVALID_HOOKS', `The settings file ${layer.file} is not valid: "${where}" ${why}.`);
    if (typeof layer.hooks !== 'object' || Array.isArray(layer.hooks)) throw bad('hooks', 'must be an object of event names');
    for (const [eventName, groups] of Object.entries(layer.hooks as Record<string, unknown>)) {
      const known = hookEventOf(eventName);
      if (!Array.isArray(groups)) throw bad(`hooks.${eventName}`, 'must be an array of { "matcher", "hooks" } groups');
      groups.forEach((group: unknown, groupIndex) => {
        const where = `hooks.${eventName}[${groupIndex}]`;
        if (typeof group !== 'object' || group === null || Array.isArray(group)) throw bad(where, 'must be an object with "hooks"');
        const { matcher, hooks } = group as { matcher?: unknown; hooks?: unknown };
        if (matcher !== undefined && matcher !== null && typeof matcher !== 'string') throw bad(`${where}.matcher`, 'must be a string');
        let compiled;
        try {
          compiled = compileMatcher(matcher ?? undefined);
        } catch (error) {
          throw bad(`${where}.matcher`, `is not a regular expression (${(error as Error).message})`);
        }
        if (!Array.isArray(hooks)) throw bad(`${where}.hooks`, 'must be an array of hooks');
        hooks.forEach((handler: unknown, index) => {
          const at = `${where}.hooks[${index}]`;
          if (typeof handler !== 'object' || handler === null || Array.isArray(handler)) throw bad(at, 'must be an object');
          const h = handler as Record<string, unknown>;
          const unknownKey = Object.keys(h).find((key) => !HANDLER_KEYS.has(key));
          if (unknownKey !== undefined) throw bad(`${at}.${unknownKey}`, 'is not a key of a hook');
          const type = h.type ?? 'command';
          if (typeof type !== 'string') throw bad(`${at}.type`, 'must be a string');
          if (type === 'command' && (typeof h.command !== 'string' || h.command.trim() === '')) throw bad(`${at}.command`, 'must be a non-empty command line');
          if (h.timeout !== undefined && (typeof h.timeout !== 'number' || !(h.timeout > 0))) throw bad(`${at}.timeout`, 'must be a number of seconds above 0');
          if (h.failMode !== undefined && h.failMode !== 'open' && h.failMode !== 'closed') throw bad(`${at}.failMode`, 'must be "open" or "closed"');
          if (h.shell !== undefined && h.shell !== 'bash' && h.shell !== 'sh') throw bad(`${at}.shell`, 'must be "bash" or "sh"');
          const skipped = !layer.trusted
            ? `not run: ${layer.file} is in a project folder you have not trusted`
            : known === undefined
              ? `not run: weir has no event "${eventName}" (it runs ${[...HOOK_EVENTS, ...Object.keys(GEMINI_EVENTS)].filter((v, i, a) => a.indexOf(v) === i).join(', ')})`
              : type !== 'command'
                ? `not run: weir runs "command" hooks only, this one is "${type}"`
                : undefined;
          entries.push(
            Object.freeze({
              id: `${layer.file}#${eventName}[${groupIndex}].hooks[${index}]`,
              event: known?.event ?? ('PreToolUse' as const),
              eventName,
              dialect: known?.dialect ?? 'claude',
              matcher: compiled,
              command: typeof h.command === 'string' ? h.command : '',
              timeoutMs: (typeof h.timeout === 'number' ? h.timeout : DEFAULT_HOOK_TIMEOUT_S) * 1000,
              failMode: h.failMode === 'open' ? 'open' : 'closed',
              shell: h.shell === 'bash' ? 'bash' : '/bin/sh',
              layer,
              skipped,
            }),
          );
        });
      });
    }
  }
  return entries;
}
