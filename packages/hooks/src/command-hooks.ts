import { definePlugin, type Guard, type Logger, type Plugin, type PluginContext, type ToolResult } from '@weir/core';
import { FAIL_CLOSED_EVENTS, type HookEvent } from './events/hook-event.js';
import { readHookLayers } from './settings/read-hook-layers.js';
import type { HookEntry } from './settings/hook-entry.js';
import type { HookLayer } from './settings/hook-layer.js';
import { hookEnvironment } from './run/hook-environment.js';
import { runHookCommand } from './run/run-hook-command.js';
import { readHookOutcome, type HookOutcome } from './run/hook-outcome.js';
import { toolView, type HookToolMapping } from './tools/hook-tool-mapping.js';
import { HooksError } from './hooks-error.js';
import { toolResponse } from './events/tool-response.js';
import { addHookRunEvent, loadActiveSpan, type ActiveSpan } from './run/hook-span-event.js';

/** Default cap on what a hook may write, per stream. */
export const DEFAULT_MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;

export interface CommandHooksOptions {
  /** The settings layers' `hooks`, in order (user before project, as the settings are layered). */
  readonly layers: readonly HookLayer[];
  /** The project folder: hooks run there, and it is `WEIR_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`. */
  readonly projectDir: string;
  /** The environment hooks start from. Default: `process.env`. The harness's API keys are removed either way. */
  readonly env?: NodeJS.ProcessEnv;
  /** More variable names to keep from hooks. */
  readonly removeEnv?: readonly string[];
  /** How your own tools look to hooks (names, input shapes), by weir tool name. */
  readonly tools?: Readonly<Record<string, HookToolMapping>>;
  /** Cap on each of stdout and stderr. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** The session hooks are told about: `session_id` and `transcript_path` (weir's session file). */
  readonly session?: () => { readonly id: string; readonly transcriptPath?: string } | undefined;
  /** `permission_mode` in the payload. Default `"default"`. */
  readonly permissionMode?: () => string;
  /** Told of every hook run (the CLI prints `systemMessage`s and failures from it). */
  readonly onRun?: (run: HookRunRecord) => void;
  /** Log lines of runs outside a tool call (tool calls log through the plugin's logger). */
  readonly logger?: Logger;
}

/** One hook run, as told to `onRun` and logged. */
export interface HookRunRecord {
  readonly hook: HookEntry;
  readonly outcome: HookOutcome;
  /** What weir did with it: the decision it took, or that it went on after a failure. */
  readonly effect: string;
}

/** What a non-tool event's hooks decided, all together. */
export interface HookEventResult {
  /** A hook blocked (the prompt, the stop, the instructions), or said `continue: false`. */
  readonly blocked: boolean;
  /** Why (each blocking hook's reason, joined). */
  readonly reason: string | undefined;
  /** Context for the model from every hook, joined by blank lines. */
  readonly context: string | undefined;
  readonly outcomes: readonly HookOutcome[];
}

/** The events outside a tool call, for the program that runs the agent (the CLI, `runTurnWithHooks`). */
export interface HookEvents {
  /** Runs every hook of `event` whose matcher takes `matchOn`, with `fields` added to the payload. */
  fire(event: HookEvent, fields: Readonly<Record<string, unknown>>, matchOn?: string): Promise<HookEventResult>;
  userPromptSubmit(prompt: string): Promise<HookEventResult>;
  stop(stopHookActive: boolean, lastAssistantMessage?: string): Promise<HookEventResult>;
  /**
   * `agent` is the subagent: `type` its name (the agent file's; SubagentStop matchers are compared
   * with it, as Claude Code compares them with `agent_type`), `id` the call that ran it.
   */
  subagentStop(stopHookActive: boolean, lastAssistantMessage?: string, agent?: { readonly type: string; readonly id?: string }): Promise<HookEventResult>;
  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<HookEventResult>;
  sessionEnd(reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<HookEventResult>;
  preCompact(trigger: 'manual' | 'auto', customInstructions?: string): Promise<HookEventResult>;
  notification(message: string, notificationType: string): Promise<HookEventResult>;
}

/** The plugin, the events, and the list `/hooks` shows. */
export interface CommandHooks {
  readonly plugin: Plugin;
  readonly events: HookEvents;
  /** Every hook read, the ones that never run included (`skipped` says why). */
  readonly hooks: readonly HookEntry[];
}

const POLICY_FAILURES = new Set(['DENIED', 'BLOCKED', 'HOOK_FAILED', 'NOT_EXECUTED', 'INVALID_CALL', 'ARGUMENTS_MISMATCH', 'INVALID_ARGUMENTS', 'TOOL_NOT_FOUND', 'ABORTED']);

/**
 * Command hooks from settings files in the format Claude Code, Codex and Gemini CLI share. Throws
 * `HooksError` `INVALID_HOOKS` for a `hooks` section that is not the format, at once.
 *
 * - `PreToolUse`: each hook is a guard of its own, added after the guards of the plugins loaded
 *   before (so after @weir/safety's), before approval; `deny`, `ask`, `allow` (which never relaxes
 *   another guard), and `updatedInput`, merged over the input it was shown, mapped back to weir's
 *   arguments and validated again.
 * - `PostToolUse` / `PostToolUseFailure`: a postExecute tap; a block replaces the result with the
 *   reason, context joins it.
 * - `PreCompact`: a tap of core's `compaction` hook, before the summary call of every compaction
 *   (automatic or `agent.compact()`); a block cancels it with the reason.
 * - The others: `events`, for the program that runs the agent.
 * Every run is a log line and a `weir.hook` span event on the active span (`@opentelemetry/api`).
 * Failing closed: see `FAIL_CLOSED_EVENTS`.
 */
export function commandHooks(options: CommandHooksOptions): CommandHooks {
  if (typeof options?.projectDir !== 'string' || options.projectDir === '') throw new HooksError('INVALID_OPTIONS', 'commandHooks needs projectDir, the project folder hooks run in.');
  const hooks = readHookLayers(options.layers ?? []);
  const runnable = hooks.filter((hook) => hook.skipped === undefined);
  const mappings = options.tools ?? {};
  const context = { projectDir: options.projectDir };
  let pluginLogger: Logger | undefined;

  const payloadBase = (hook: HookEntry) => {
    const session = options.session?.();
    return {
      session_id: session?.id ?? '',
      transcript_path: session?.transcriptPath ?? '',
      cwd: options.projectDir,
      permission_mode: options.permissionMode?.() ?? 'default',
      hook_event_name: hook.eventName,
    };
  };

  // @opentelemetry/api, when installed, loaded by the first run: each run is a span event on the span active where it runs.
  let spanApi: Promise<ActiveSpan> | undefined;
  let activeSpan: ActiveSpan | undefined;
  const run = async (hook: HookEntry, payload: Record<string, unknown>, signal: AbortSignal | undefined, logger: Logger | undefined): Promise<HookOutcome> => {
    activeSpan ??= await (spanApi ??= loadActiveSpan());
    const env = hookEnvironment({ base: options.env ?? process.env, projectDir: options.projectDir, pluginRoot: hook.layer.pluginRoot, removeEnv: options.removeEnv ?? [] });
    const commandRun = await runHookCommand({
      command: hook.command,
      shell: hook.shell,
      input: JSON.stringify(payload),
      cwd: options.projectDir,
      env,
      timeoutMs: hook.timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_HOOK_OUTPUT_BYTES,
      signal,
    });
    return readHookOutcome(hook, commandRun);
  };

  const tell = (outcome: HookOutcome, effect: string, logger: Logger | undefined) => {
    const { hook, run: r } = outcome;
    const durationMs = Math.round(r.durationMs * 1000) / 1000;
    const fields = { hook: hook.id, event: hook.event, command: label(hook), file: hook.layer.file, status: r.status, exitCode: r.exitCode, signal: r.signal, durationMs, decision: outcome.decision, effect };
    try {
      addHookRunEvent(activeSpan?.(), outcome, effect, durationMs);
    } catch {
      // Tracing changes no decision.
    }
    const log = logger ?? options.logger ?? pluginLogger;
    if (outcome.failure !== undefined) log?.warn({ ...fields, failure: outcome.failure }, `hook ${hook.event} ${outcome.failure}`);
    else log?.info(fields, `hook ${hook.event}: ${outcome.decision}`);
    try {
      options.onRun?.({ hook, outcome, effect });
    } catch {
      // A listener's mistake changes no decision.
    }
  };

  const preToolUse = (hook: HookEntry): Guard => async (call, guardContext) => {
    const view = toolView(call.toolName, call.source?.server, call.arguments, hook.dialect, mappings, context);
    if (!hook.matcher.matches(view.names)) return undefined;
    const payload = { ...payloadBase(hook), tool_name: view.toolName, tool_input: view.input, tool_use_id: call.callId, weir_tool_name: call.toolName };
    const outcome = await run(hook, payload, guardContext.signal, guardContext.logger);
    const from = `hook "${label(hook)}" (${hook.eventName}, from ${hook.layer.file})`;
    if (outcome.failure !== undefined) {
      if (hook.failMode === 'open') {
        tell(outcome, 'failed open: no decision', guardContext.logger);
        return undefined;
      }
      tell(outcome, 'failed closed: denied', guardContext.logger);
      return { decision: 'deny', reason: `${from} ${outcome.failure}; weir fails closed, so the call was denied and nothing of it ran.` };
    }
    if (outcome.stop) {
      tell(outcome, 'continue: false: denied', guardContext.logger);
      return { decision: 'deny', reason: `${from} stopped: ${outcome.stopReason ?? outcome.reason ?? 'continue: false'}` };
    }
    tell(outcome, outcome.decision, guardContext.logger);
    const args = outcome.updatedInput === undefined ? undefined : view.back(outcome.updatedInput);
    switch (outcome.decision) {
      case 'deny':
        return { decision: 'deny', reason: `${from} denied it: ${outcome.reason}` };
      case 'ask':
        return { decision: 'ask', reason: `${from} asks: ${outcome.reason ?? 'the hook wants you to confirm this call'}`, arguments: args };
      case 'allow':
        return { decision: 'allow', reason: outcome.reason, arguments: args };
      default:
        return args === undefined ? undefined : { decision: 'allow', arguments: args };
    }
  };

  const postHooks = runnable.filter((hook) => hook.event === 'PostToolUse' || hook.event === 'PostToolUseFailure');
  const setup = (ctx: PluginContext) => {
    pluginLogger = ctx.logger;
    for (const hook of runnable) if (hook.event === 'PreToolUse') ctx.guards.add(`hook ${label(hook)}`, preToolUse(hook));
    if (runnable.some((hook) => hook.event === 'PreCompact')) {
      // Before the summary call of every compaction, automatic or asked for: a block stops it, with the reason.
      ctx.hooks.compaction.tapPromise('hooks PreCompact', async (plan) => {
        const decided = await events.preCompact(plan.trigger, plan.instructions);
        return decided.blocked ? { action: 'cancel', reason: decided.reason ?? 'a PreCompact hook blocked it' } : undefined;
      });
    }
    if (postHooks.length === 0) return;
    // What the body got (after every rewrite): the post hooks are shown that as tool_input.
    const ranWith = new Map<string, Readonly<Record<string, unknown>>>();
    ctx.hooks.execute.tap((dispatch) => (args, exec) => {
      ranWith.set(exec.callKey, args);
      return dispatch(args, exec);
    });
    ctx.hooks.postExecute.tapPromise(async (result, callContext) => {
      const args = ranWith.get(callContext.callKey);
      ranWith.delete(callContext.callKey);
      if (args === undefined || (!result.ok && POLICY_FAILURES.has(result.error.code))) return undefined;
      const response = toolResponse(callContext.toolName, result);
      const event: HookEvent = response.failed ? 'PostToolUseFailure' : 'PostToolUse';
      const blocks: string[] = [];
      const contexts: string[] = [];
      for (const hook of postHooks) {
        if (hook.event !== event) continue;
        const view = toolView(callContext.toolName, callContext.tool?.source?.server, args, hook.dialect, mappings, context);
        if (!hook.matcher.matches(view.names)) continue;
        const fields = response.failed ? { error: response.error, is_interrupt: response.interrupted } : { tool_response: response.value };
        const outcome = await run(hook, { ...payloadBase(hook), tool_name: view.toolName, tool_input: view.input, ...fields, tool_use_id: callContext.callId, weir_tool_name: callContext.toolName }, callContext.signal, callContext.logger);
        if (outcome.failure !== undefined) {
          tell(outcome, 'failed: logged, the result stands', callContext.logger);
          continue;
        }
        tell(outcome, outcome.decision, callContext.logger);
        if (outcome.decision === 'block') blocks.push(`hook "${label(hook)}" (${hook.eventName}, from ${hook.layer.file}): ${outcome.reason}`);
        if (outcome.context !== undefined) contexts.push(outcome.context);
      }
      if (blocks.length > 0) return { action: 'block', reason: [...blocks, ...contexts].join('\n\n') };
      if (contexts.length > 0) return { action: 'addContext', text: contexts.join('\n\n') };
      return undefined;
    });
  };

  const fire = async (event: HookEvent, fields: Readonly<Record<string, unknown>>, matchOn?: string): Promise<HookEventResult> => {
    const outcomes: HookOutcome[] = [];
    const reasons: string[] = [];
    const contexts: string[] = [];
    let blocked = false;
    for (const hook of runnable) {
      if (hook.event !== event) continue;
      if (matchOn !== undefined && !hook.matcher.matches([matchOn])) continue;
      const outcome = await run(hook, { ...payloadBase(hook), ...fields }, undefined, undefined);
      outcomes.push(outcome);
      const from = `hook "${label(hook)}" (${hook.eventName}, from ${hook.layer.file})`;
      if (outcome.failure !== undefined) {
        if (FAIL_CLOSED_EVENTS.has(event) && hook.failMode === 'closed') {
          blocked = true;
          reasons.push(`${from} ${outcome.failure}; weir fails closed, so it was blocked.`);
          tell(outcome, 'failed closed: blocked', undefined);
        } else tell(outcome, 'failed: logged, going on', undefined);
        continue;
      }
      const blocks = outcome.decision === 'block' || outcome.decision === 'deny' || outcome.stop;
      tell(outcome, blocks ? 'blocked' : outcome.decision, undefined);
      if (blocks) {
        blocked = true;
        reasons.push(outcome.reason ?? outcome.stopReason ?? `${from} said continue: false`);
      }
      if (outcome.context !== undefined) contexts.push(outcome.context);
    }
    return { blocked, reason: reasons.length === 0 ? undefined : reasons.join('\n\n'), context: contexts.length === 0 ? undefined : contexts.join('\n\n'), outcomes };
  };

  const events: HookEvents = {
    fire,
    userPromptSubmit: (prompt) => fire('UserPromptSubmit', { prompt }),
    stop: (active, last) => fire('Stop', { stop_hook_active: active, ...(last === undefined ? {} : { last_assistant_message: last }) }),
    subagentStop: (active, last, agent) =>
      fire(
        'SubagentStop',
        { stop_hook_active: active, ...(last === undefined ? {} : { last_assistant_message: last }), ...(agent === undefined ? {} : { agent_type: agent.type, ...(agent.id === undefined ? {} : { agent_id: agent.id }) }) },
        agent?.type,
      ),
    sessionStart: (source) => fire('SessionStart', { source }, source),
    sessionEnd: (reason) => fire('SessionEnd', { reason }, reason),
    preCompact: (trigger, customInstructions) => fire('PreCompact', { trigger, custom_instructions: customInstructions ?? '' }, trigger),
    notification: (message, notificationType) => fire('Notification', { message, notification_type: notificationType }, notificationType),
  };

  return Object.freeze({ plugin: definePlugin({ name: 'hooks', setup }), events: Object.freeze(events), hooks: Object.freeze(hooks) });
}

/** A hook's command as messages name it: one line, at most 80 characters. */
export function label(hook: HookEntry): string {
  const line = hook.command.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

