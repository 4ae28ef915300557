import type { HookEvent } from '../events/hook-event.js';
import type { HookLayer } from './hook-layer.js';
import type { HookMatcher } from '../tools/hook-matcher.js';

/** One command hook, read from a settings file. */
export interface HookEntry {
  /** `<file>#<Event>[group].hooks[index]`: where it is written, for messages and `/hooks`. */
  readonly id: string;
  readonly event: HookEvent;
  /** The event's name as the file spells it (`PreToolUse`, or Gemini's `BeforeTool`). */
  readonly eventName: string;
  /** Whose names and shapes its payload uses. */
  readonly dialect: 'claude' | 'gemini';
  readonly matcher: HookMatcher;
  readonly command: string;
  readonly timeoutMs: number;
  /** `closed` (default): a failure of a blocking event's hook denies. `open`: logged, no decision. */
  readonly failMode: 'closed' | 'open';
  /** The shell that runs `command`: `/bin/sh` unless the hook says `shell: "bash"`. */
  readonly shell: string;
  readonly layer: HookLayer;
  /** Why it never runs, when it does not: the folder is not trusted, or weir cannot run its kind. */
  readonly skipped: string | undefined;
}
