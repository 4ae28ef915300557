import { definePlugin, type Plugin } from '@weir/core';
import { permits, type ToolRule } from './tool-list.js';

/** What narrows a run's tools: the skill or command that asked, and its list. */
export interface Narrowing {
  /** `skill "pdf"`, `command /review`: named in the reason a blocked call gets. */
  readonly by: string;
  readonly rules: readonly ToolRule[];
}

/** The tool narrowing of each run (agent turn), and the plugin that enforces it. */
export interface ToolNarrowing {
  /** Narrows the tools of run `runId` until that turn ends; a second narrowing intersects with the first. */
  narrow(runId: string, narrowing: Narrowing): void;
  /** Narrows the next turn to start (a command's `allowed-tools`): it applies from that turn's `turn-start`. */
  narrowNextTurn(narrowing: Narrowing): void;
  /** Drops what `narrowNextTurn` left when no turn started (a hook blocked the prompt): it must not narrow a later one. */
  dropPending(): void;
  /** The narrowings on run `runId` now. */
  active(runId: string): readonly Narrowing[];
  /**
   * The plugin: a prepareExecution tap that blocks a call no active narrowing lists (tools named
   * in `alwaysAllowed`, such as `skill`, excepted), and a turn observer that drops a run's
   * narrowing when its turn ends. It only ever blocks: a listed call still meets every guard,
   * rule and approval of the harness, so a list never grants what the rules do not.
   */
  readonly plugin: Plugin;
}

/** Creates the narrowing state and its plugin, named `name`. */
export function toolNarrowing(name: string, alwaysAllowed: readonly string[]): ToolNarrowing {
  const byRun = new Map<string, Narrowing[]>();
  let pending: Narrowing[] = [];
  const narrow = (runId: string, narrowing: Narrowing) => byRun.set(runId, [...(byRun.get(runId) ?? []), narrowing]);
  return {
    narrow,
    narrowNextTurn: (narrowing) => {
      pending = [...pending, narrowing];
    },
    dropPending: () => {
      pending = [];
    },
    active: (runId) => byRun.get(runId) ?? [],
    plugin: definePlugin({
      name,
      setup(ctx) {
        ctx.hooks.turn.tap((event, turn) => {
          if (event.type === 'turn-start' && pending.length > 0) {
            for (const narrowing of pending) narrow(turn.run.id, narrowing);
            pending = [];
          }
          if (event.type === 'turn-end' || event.type === 'turn-error') byRun.delete(turn.run.id);
        });
        ctx.hooks.prepareExecution.tap((preparation, call) => {
          if (preparation.status !== 'ready' || alwaysAllowed.includes(call.toolName)) return undefined;
          const refusing = (byRun.get(call.run.id) ?? []).find((narrowing) => !permits(narrowing.rules, call.toolName, preparation.arguments));
          if (refusing === undefined) return undefined;
          const listed = refusing.rules.map((rule) => rule.written);
          return {
            action: 'block',
            reason: `${refusing.by} allows only ${listed.length === 0 ? 'no tools' : [...new Set(listed)].join(', ')} while it is active; ${call.toolName} with these arguments is not among them.`,
          };
        });
        ctx.onDispose(() => {
          byRun.clear();
          pending = [];
        });
      },
    }),
  };
}
