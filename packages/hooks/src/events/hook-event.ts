/**
 * The events weir runs command hooks for, under Claude Code's names (Codex uses the same).
 * `InstructionsLoaded` is fired by whoever loads project instructions (issue 33).
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
  'InstructionsLoaded',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Gemini CLI's event names, and the event each one is in weir. */
export const GEMINI_EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
});

/**
 * Events whose hooks decide before something happens: a hook of these that fails (times out, is
 * killed, cannot start, answers malformed JSON, exits non-zero other than 2) denies, unless the hook
 * says `failMode: "open"`. The others log and go on.
 */
export const FAIL_CLOSED_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'UserPromptSubmit']);

/** Events whose matcher is compared with a tool's name. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** A name from a settings file as a weir event, or `undefined` for one weir does not run. */
export function hookEventOf(name: string): { event: HookEvent; dialect: 'claude' | 'gemini' } | undefined {
  if ((HOOK_EVENTS as readonly string[]).includes(name)) return { event: name as HookEvent, dialect: 'claude' };
  const gemini = Object.hasOwn(GEMINI_EVENTS, name) ? GEMINI_EVENTS[name] : undefined;
  return gemini === undefined ? undefined : { event: gemini, dialect: 'gemini' };
}
