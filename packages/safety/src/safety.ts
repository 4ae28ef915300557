import { argumentsHash, definePlugin, HarnessError, type Guard, type GuardVerdict, type Plugin, type ToolArguments } from '@weir/core';
import type { Approver } from './approvals/approver.js';
import { DecisionLedger, type DecisionKey } from './approvals/decision-ledger.js';
import { evaluatePolicy, type Policy, type PolicyEvaluation } from './rules/evaluate-policy.js';
import { resolvePathArguments } from './rules/path-arguments.js';
import { physicalPathCheck } from './rules/physical-path-check.js';
import { extensionKeyNames, extensionKeysReady } from './rules/rule-keys.js';
import { compileRule, compileRules, type PermissionRule } from './rules/permission-rule.js';
import { DEFAULT_PROTECTED_PATHS } from './rules/protected-paths.js';
import { isSafetyMode, SAFETY_MODES, type SafetyMode } from './settings/safety-mode.js';
import { layeredPolicy, saveTarget } from './settings/layered-rules.js';
import { morePermissive } from './settings/mode-order.js';
import { SafetyError } from './safety-error.js';
import { saveProjectRule } from './settings/save-project-rule.js';
import { PROJECT_SETTINGS_FILE, type SafetySettings } from './settings/safety-settings.js';
import { SessionGrants, type SessionScope } from './approvals/session-grants.js';
import { toolFactsOf } from './rules/tool-facts.js';

export interface SafetyOptions {
  /** Default `'ask'`: read-only tools run, write and dangerous tools ask. */
  readonly mode?: SafetyMode;
  /** Allow, ask or deny tools, optionally by path. Deny beats ask beats allow. */
  readonly rules?: readonly PermissionRule[];
  /**
   * Who is asked when a call needs approval (`terminalApprover()` for a person at a terminal).
   * Without one, safety sets no approval responder, and core denies every call that asks.
   */
  readonly approver?: Approver;
  /**
   * Paths (picomatch globs relative to the root) where a write or dangerous tool asks every time,
   * in every mode. Default `DEFAULT_PROTECTED_PATHS`; `[]` turns the protection off.
   */
  readonly protectedPaths?: readonly string[];
  /**
   * The argument names that hold paths, for path rules, protected paths and session scopes.
   * Each may hold a string or an array of strings. Default `['path']` (the tools-fs tools).
   */
  readonly pathArguments?: readonly string[];
  /**
   * Layered settings, from `loadSafetySettings({ user, project, managed })`: their rules and modes
   * add up with `mode` and `rules` here, strictest wins (see `layeredPolicy`). With a trusted project,
   * "allow always" in the prompt saves a rule to the project's `.weir/settings.json`.
   */
  readonly settings?: SafetySettings;
}

/** The safety plugin, with the run-time controls a front end binds to keys. */
export interface SafetyPlugin extends Plugin {
  /** The mode in force now. */
  readonly mode: SafetyMode;
  /**
   * Switches the mode at run time, for every harness the plugin is loaded in: calls decided from
   * now on use it (a call already approved keeps its approval; the rules checked again at the body
   * use the new mode, so switching to a stricter mode stops an approved write that has not opened
   * its file yet). Rules are unchanged: deny still beats ask beats allow. Throws `SafetyError`
   * `MODE_LOCKED` for a mode more permissive than locked managed settings allow.
   */
  setMode(mode: SafetyMode): void;
  /** Rules and modes from the settings that were left out (an untrusted project's allows, say), with why. */
  readonly ignored: readonly string[];
}

/** The plugin's name: also the owner of its guard, its approval responder and its taps. */
export const SAFETY_PLUGIN_NAME = 'safety';

const OPTION_KEYS = new Set(['mode', 'rules', 'approver', 'protectedPaths', 'pathArguments', 'settings']);

/**
 * The safety policy, as a plugin named `'safety'`: one guard that turns tool tiers, the mode and
 * the rules into allow, ask or deny (evaluated once per call, bound to the call id, the tool and
 * the canonical-JSON hash of the final arguments), and, when an `approver` is given, the approval
 * responder that asks it and remembers "allow for this session" answers while the plugin is loaded.
 * Throws `HarnessError` `INVALID_PLUGIN` at once on bad options; never throws while deciding.
 */
export function safety(options: SafetyOptions = {}): SafetyPlugin {
  const where = 'safety()';
  if (typeof options !== 'object' || options === null) throw invalid(`${where} takes an options object.`);
  const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.has(key));
  if (unknown.length > 0) throw invalid(`${where}: unknown option(s) ${unknown.join(', ')}; expected ${[...OPTION_KEYS].join(', ')}.`);
  const optionMode = options.mode;
  if (optionMode !== undefined && !isSafetyMode(optionMode)) throw invalid(`${where}: mode must be one of ${SAFETY_MODES.map((name) => JSON.stringify(name)).join(', ')}, got ${JSON.stringify(optionMode)}.`);
  const approver = options.approver;
  if (approver !== undefined && typeof approver !== 'function') throw invalid(`${where}: approver must be a function, got ${typeof approver}.`);
  compileRules(options.rules ?? [], where);
  const layered = layeredPolicy(options.settings, { mode: optionMode, rules: options.rules ?? [] }, where);
  // Shared by every harness the plugin is loaded in: the mode switch and saved rules reach all of them.
  const state = { mode: layered.mode, rules: layered.rules };
  const saveTo = saveTarget(options.settings);
  const protectedPaths = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  const protectedRule = protectedPaths.length === 0 ? undefined : compileRule({ ask: '*', path: protectedPaths }, `${where}: protectedPaths`);
  const pathArguments = names(options.pathArguments ?? ['path'], `${where}: pathArguments`);

  const plugin = definePlugin({
    name: SAFETY_PLUGIN_NAME,
    setup(ctx) {
      // Per load: a new session starts with nothing granted.
      const grants = new SessionGrants();
      const ledger = new DecisionLedger();
      const policy: Policy = {
        get mode() {
          return state.mode;
        },
        get rules() {
          return state.rules;
        },
        protectedRule,
        grants,
      };

      const guard: Guard = async (call, context) => {
        const key = keyOf(call.callId, call.toolName, call.arguments);
        const known = ledger.get(key);
        if (known) return verdictOf(known);
        // A key such as command needs its parser loaded before its matchers run.
        await extensionKeysReady(extensionKeyNames());
        const facts = toolFactsOf(call);
        const paths = await resolvePathArguments(call.arguments, facts.files, pathArguments, call.tier, context.sandbox);
        const subject = { toolName: call.toolName, tier: call.tier, action: facts.action, server: facts.server, arguments: call.arguments };
        const evaluation = evaluatePolicy(policy, { ...subject, paths, argumentsHash: key.argumentsHash, root: context.sandbox?.root });
        ledger.set(key, evaluation);
        ctx.logger.debug({ callId: call.callId, tool: call.toolName, decision: evaluation.decision }, evaluation.reason);
        return verdictOf(evaluation);
      };
      ctx.guards.add(SAFETY_PLUGIN_NAME, guard);
      // The rules again at the body, on the physical path it opens (see file-access.ts), in every
      // mode: a link swapped after the guard decided, or a denied file inside a directory that a
      // reading tool walks, is refused there.
      ctx.hooks.execute.tap((dispatch) => async (args, exec) => {
        const sandbox = exec.sandbox;
        if (sandbox === undefined) return dispatch(args, exec);
        const hash = argumentsHash(args);
        const evaluation = ledger.get({ callId: exec.callId, toolName: exec.toolName, argumentsHash: hash });
        const fileAccess = physicalPathCheck(policy, { subject: evaluation?.subject, argumentsHash: hash, root: sandbox.root, evaluation });
        return dispatch(args, { ...exec, fileAccess });
      });
      // A final result ends the call: its decision is not needed any more.
      ctx.hooks.result.tap((_result, context) => ledger.forgetCall(context.callId));
      ctx.onDispose(() => grants.clear());

      if (approver === undefined) return;
      ctx.approval.setResponder(async (request) => {
        // A plugin's own question (an MCP server asking during a call) has no policy decision behind
        // it: the person is asked, once, and nothing is granted or saved.
        if (request.origin === 'plugin') {
          const answer = await approver({ ...request, session: undefined });
          if (request.signal.aborted) return { decision: 'deny' };
          return answer?.decision === 'allow' ? { decision: 'allow' } : { decision: 'deny', message: typeof answer?.message === 'string' ? answer.message : undefined };
        }
        const evaluation = ledger.get(keyOf(request.callId, request.toolName, request.arguments));
        // Core shows the approver the very arguments the guards saw; anything else is refused, not guessed at.
        if (evaluation === undefined) throw new Error('safety has no policy decision for this call with these exact arguments');
        const scope = evaluation.decision === 'ask' ? evaluation.sessionScope : undefined;
        const always = saveTo?.file !== undefined && scope?.kind === 'paths' ? alwaysRule(scope, saveTo.file) : undefined;
        const answer = await approver({
          ...request,
          session: scope === undefined ? undefined : { description: scope.description },
          always: always === undefined ? undefined : { description: always.description, rule: always.rule, file: always.file },
        });
        // A late answer (after a timeout or a cancel) is not acted on, and grants nothing.
        if (request.signal.aborted) return { decision: 'deny' };
        if (answer?.decision === 'allow') {
          if (answer.scope === 'session' && scope !== undefined) grants.add(scope);
          if (answer.scope === 'always' && always !== undefined && scope !== undefined) {
            // The person allowed this call whatever happens to the file; the rule is for later calls.
            grants.add(scope);
            try {
              await saveProjectRule(always.file, always.rule);
              state.rules = [...state.rules, compileRule(always.rule, `${where}: saved rule`)].map((rule, index, list) =>
                index === list.length - 1 ? Object.freeze({ ...rule, label: `${rule.label} (project settings)` }) : rule,
              );
            } catch (error) {
              ctx.logger.warn({ err: error }, 'safety: the "allow always" rule could not be saved; it holds for this session only');
            }
          }
          return { decision: 'allow' };
        }
        return { decision: 'deny', message: typeof answer?.message === 'string' ? answer.message : undefined };
      });
    },
  });
  return Object.freeze({
    ...plugin,
    get mode() {
      return state.mode;
    },
    setMode(next: SafetyMode) {
      if (!isSafetyMode(next)) throw new SafetyError('MODE_LOCKED', `setMode: expected one of ${SAFETY_MODES.join(', ')}, got ${JSON.stringify(next)}.`);
      if (layered.modeCap !== undefined && morePermissive(next, layered.modeCap)) {
        throw new SafetyError('MODE_LOCKED', `The managed settings lock the mode at "${layered.modeCap}" or stricter; "${next}" is not allowed.`);
      }
      state.mode = next;
    },
    ignored: Object.freeze([...layered.ignored]),
  });
}

/** The rule "allow always" saves for a path scope, shown to the person before they choose it. */
function alwaysRule(scope: Extract<SessionScope, { kind: 'paths' }>, file: string): { rule: PermissionRule; description: string; file: string } {
  const paths = [...scope.directories.map((directory) => `${directory}/**`), ...scope.files];
  const rule: PermissionRule = { allow: { tool: scope.toolName, path: paths.length === 1 ? paths[0]! : paths } };
  return { rule, file, description: `saves ${compileRule(rule, 'always').label} to ${PROJECT_SETTINGS_FILE}` };
}

function keyOf(callId: string, toolName: string, args: ToolArguments): DecisionKey {
  return { callId, toolName, argumentsHash: argumentsHash(args) };
}

function verdictOf(evaluation: PolicyEvaluation): GuardVerdict {
  return { decision: evaluation.decision, reason: evaluation.reason };
}

function names(value: unknown, where: string): readonly string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string' && item !== '')) {
    throw invalid(`${where} must be a non-empty array of argument names, got ${JSON.stringify(value)}.`);
  }
  return Object.freeze([...value]);
}

function invalid(message: string): HarnessError {
  return new HarnessError('INVALID_PLUGIN', message);
}
