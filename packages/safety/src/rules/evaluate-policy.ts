import type { GuardDecision } from '@weir/core';
import type { PathArgument } from './path-arguments.js';
import { ruleMatches, type CompiledRule } from './permission-rule.js';
import type { RuleSubject } from './rule-subject.js';
import { modeDecision, type SafetyMode } from '../settings/safety-mode.js';
import { sessionScopeFor, type SessionGrants, type SessionScope } from '../approvals/session-grants.js';

/** A safety policy, compiled: what `evaluatePolicy` reads. */
export interface Policy {
  readonly mode: SafetyMode;
  readonly rules: readonly CompiledRule[];
  /** One ask rule over every tool; applied to write and dangerous tools only. `undefined` when off. */
  readonly protectedRule: CompiledRule | undefined;
  readonly grants: SessionGrants;
}

/** The call as the policy sees it. */
export interface PolicyCall extends RuleSubject {
  readonly argumentsHash: string;
  /** The sandbox root the paths were resolved under; `undefined` without a sandbox. */
  readonly root: string | undefined;
}

/** One decision for one call. */
export interface PolicyEvaluation {
  readonly decision: GuardDecision;
  /** Written for the person asked and for the model when denied. */
  readonly reason: string;
  /**
   * What "allow for this session" would cover. Set only when the ask comes from the mode: an ask
   * rule or a protected path asks every time, so no session answer is offered for it.
   */
  readonly sessionScope: SessionScope | undefined;
  /** The paths the decision was made on: what the body's physical-path check compares against. */
  readonly paths: readonly PathArgument[];
  /** The call the decision was made on, without its paths: what the body's check judges again. */
  readonly subject: Omit<RuleSubject, 'paths'>;
}

/**
 * Decides one call, in this order, each step final:
 * 1. a matching deny rule denies;
 * 2. a mode that denies the tier (read-only) denies: no rule can widen it;
 * 3. a matching ask rule asks, and so does a protected path for a write or dangerous tool;
 * 4. a matching allow rule allows;
 * 5. otherwise the mode decides; when it asks, an earlier "allow for this session" covering the
 *    call allows it.
 * So deny beats ask beats allow whatever the order or specificity of the rules. Never throws.
 */
export function evaluatePolicy(policy: Policy, call: PolicyCall): PolicyEvaluation {
  const matching = policy.rules.filter((rule) => ruleMatches(rule, call));
  const first = (effect: GuardDecision) => matching.find((rule) => rule.effect === effect);

  const subject = { toolName: call.toolName, tier: call.tier, action: call.action, server: call.server, arguments: call.arguments };
  const decided = (decision: GuardDecision, reason: string): PolicyEvaluation => ({ decision, reason, sessionScope: undefined, paths: call.paths, subject });
  const deny = first('deny');
  if (deny) return decided('deny', `the safety rule ${deny.label} forbids it${pathNote(call.paths)}.`);

  const byMode = modeDecision(policy.mode, call.tier);
  if (byMode === 'deny') {
    return decided('deny', `safety mode "${policy.mode}" runs only read-only tools, and ${call.toolName} is a ${call.tier} tool.`);
  }

  const ask = first('ask');
  if (ask) return decided('ask', `the safety rule ${ask.label} asks every time${pathNote(call.paths)}.${refusalNote(call.paths)}`);
  if (call.tier !== 'read-only' && policy.protectedRule && ruleMatches(policy.protectedRule, call)) {
    return decided('ask', `it touches a protected path${pathNote(call.paths)}; changes there can run code, so they are asked for every time.`);
  }

  const allow = first('allow');
  if (allow) return decided('allow', `the safety rule ${allow.label} allows it.`);

  if (byMode === 'allow') return decided('allow', `safety mode "${policy.mode}" runs ${call.tier} tools.`);
  const granted = policy.grants.find(call.toolName, call.paths, call.argumentsHash, call.root);
  if (granted) return decided('allow', `allowed for this session (${granted.description}).`);
  return {
    decision: 'ask',
    reason: `${call.toolName} is a ${call.tier} tool, and safety mode "${policy.mode}" asks before ${call.tier} tools run.${refusalNote(call.paths)}`,
    sessionScope: sessionScopeFor(call.toolName, call.tier, call.paths, call.argumentsHash, call.root),
    paths: call.paths,
    subject,
  };
}

function pathNote(paths: readonly PathArgument[]): string {
  const shown = paths.filter((item) => item.literal !== undefined).map((item) => JSON.stringify(item.literal));
  return shown.length === 0 ? '' : ` (path ${shown.join(', ')})`;
}

/** Tells the person when the sandbox refused a path: a tool that asks the same sandbox will refuse it too. */
function refusalNote(paths: readonly PathArgument[]): string {
  const refused = paths.filter((item) => item.refusal?.kind === 'refused');
  return refused.map((item) => ` Note: ${item.argument} ${JSON.stringify(item.literal)}: ${item.refusal!.message}.`).join('');
}
