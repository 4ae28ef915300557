import type { CommandHooks, HookEventResult, HookEvents } from '@weir/hooks';
import type { SessionBundles } from './session-bundles.js';

/**
 * The session's hooks with its bundles' joined: the plugin stays the settings' own (each bundle's
 * tool-event hooks run through the bundle's plugin), the events outside a tool call (`SessionStart`,
 * `UserPromptSubmit`, `Stop`, ...) run the settings' hooks, then each loaded bundle's, in load
 * order, and `hooks` lists them all (`/hooks`). Read at each call: a bundle `/reload` dropped is
 * no longer asked.
 */
export function bundleAwareHooks(settings: CommandHooks, bundles: SessionBundles): CommandHooks {
  const sources = () => [settings.events, ...bundles.loaded().flatMap((loaded) => (loaded.hooks === undefined ? [] : [loaded.hooks.events]))];
  return {
    plugin: settings.plugin,
    events: mergeHookEvents(sources),
    get hooks() {
      return [...settings.hooks, ...bundles.loaded().flatMap((loaded) => loaded.hooks?.hooks ?? [])];
    },
  };
}

/** Events that run each source's hooks in turn and join what they decided: blocked if any blocked. */
export function mergeHookEvents(sources: () => readonly HookEvents[]): HookEvents {
  const all = async (call: (events: HookEvents) => Promise<HookEventResult>): Promise<HookEventResult> => {
    const results: HookEventResult[] = [];
    for (const events of sources()) results.push(await call(events));
    if (results.length === 1) return results[0]!;
    const joined = (values: readonly (string | undefined)[], separator: string) => {
      const present = values.filter((value): value is string => value !== undefined && value !== '');
      return present.length === 0 ? undefined : present.join(separator);
    };
    return {
      blocked: results.some((result) => result.blocked),
      reason: joined(results.map((result) => (result.blocked ? result.reason : undefined)), '\n'),
      context: joined(results.map((result) => result.context), '\n\n'),
      outcomes: results.flatMap((result) => result.outcomes),
    };
  };
  return {
    fire: (event, fields, matchOn) => all((events) => events.fire(event, fields, matchOn)),
    userPromptSubmit: (prompt) => all((events) => events.userPromptSubmit(prompt)),
    stop: (active, last) => all((events) => events.stop(active, last)),
    subagentStop: (active, last, agent) => all((events) => events.subagentStop(active, last, agent)),
    sessionStart: (source) => all((events) => events.sessionStart(source)),
    sessionEnd: (reason) => all((events) => events.sessionEnd(reason)),
    preCompact: (trigger, instructions) => all((events) => events.preCompact(trigger, instructions)),
    notification: (message, type) => all((events) => events.notification(message, type)),
  };
}
