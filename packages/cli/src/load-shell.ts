import type { Harness } from '@weir/core';
import { oneLineError } from './one-line-error.js';

/** How the shell tool ended up: on, off by the person's choice, or off because its sandbox does not work here. */
export type ShellState = { readonly on: true } | { readonly on: false; readonly why: 'asked' | 'unavailable' };

/**
 * Loads `@weir/tools-shell` (`run_command`, each command in its bubblewrap sandbox) unless `off`.
 * Where the sandbox cannot run (bubblewrap missing, user namespaces refused, a workspace the
 * sandbox user cannot reach), `say` gets one line with the cause and its fix, and the session goes
 * on without the tool. Never rejects for that; the plugin's own probe decides, nothing is guessed.
 */
export async function loadShell(
  harness: Harness,
  options: {
    readonly workspace: string;
    readonly hidden: readonly string[];
    /** Hosts commands may reach through the sandbox's proxy (settings and config `network.allow`); empty: no network. */
    readonly networkAllow?: readonly string[];
    readonly off: boolean;
    readonly say: ((line: string) => void) | undefined;
  },
): Promise<ShellState> {
  if (options.off) return { on: false, why: 'asked' };
  const { shellTools } = await import('@weir/tools-shell');
  try {
    const allow = options.networkAllow ?? [];
    await harness.use(shellTools({ root: options.workspace, hidden: options.hidden, ...(allow.length === 0 ? {} : { network: { allow } }) }));
    return { on: true };
  } catch (error) {
    options.say?.(`[shell] off: ${shellOffReason(error)}; weir goes on without run_command (--no-shell, or "shell": false in weir.config.json, turns it off without this line)`);
    return { on: false, why: 'unavailable' };
  }
}

/** The sandbox's own reason (what failed and the fix) when the error carries one, else the error in one line. */
function shellOffReason(error: unknown): string {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const found = cause as Error & { code?: unknown; reason?: unknown };
    if (found.code === 'SANDBOX_UNAVAILABLE' && typeof found.reason === 'string') return found.reason;
  }
  return oneLineError(error).replace(/\.$/, '');
}
