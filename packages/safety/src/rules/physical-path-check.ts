import { posix } from 'node:path';
import { evaluatePolicy, type Policy, type PolicyEvaluation } from './evaluate-policy.js';
import type { FileAccess, FileAccessVerdict } from './file-access.js';
import type { PathArgument } from './path-arguments.js';
import type { RuleSubject } from './rule-subject.js';

const ALLOWED: FileAccessVerdict = Object.freeze({ allowed: true });

/** The call a body check belongs to. */
export interface CheckedCall {
  /** The call as the guard judged it; `undefined` when the guard's decision is not known. */
  readonly subject: Omit<RuleSubject, 'paths'> | undefined;
  readonly argumentsHash: string;
  /** The sandbox root of the call. */
  readonly root: string;
  /** The guard's decision on this call, when it is still known. */
  readonly evaluation: PolicyEvaluation | undefined;
}

/**
 * The rules again, on the physical path a body is about to open: a deny refuses it; an allow
 * (by the mode, a rule or a session grant) lets it through; an ask passes only for a path the
 * guard asked about, or one below a directory it asked about (the person approved exactly those;
 * anything else was never shown, so it is refused rather than asked about mid-call). Without the
 * guard's decision (forgotten, or never made), everything is refused. Never throws.
 */
export function physicalPathCheck(policy: Policy, call: CheckedCall): FileAccess {
  // Only an ask that was answered approves anything: after an allow, nobody was shown the call.
  const approved = call.evaluation?.decision === 'ask' ? call.evaluation.paths : [];
  const decided = approved.flatMap((item) => (item.canonical === undefined ? [] : [item.canonical.relativePath]));
  return {
    check(relativePath: string): FileAccessVerdict {
      if (typeof relativePath !== 'string') return { allowed: false, reason: 'the path to check is not a string' };
      const relative = relativePath === '' ? '.' : relativePath;
      const item: PathArgument = {
        argument: 'opened path',
        literal: relative,
        canonical: { path: relative === '.' ? call.root : posix.join(call.root, relative), relativePath: relative },
        refusal: undefined,
      };
      // Without the guard's view of the call there is nothing to judge it by: refused.
      if (call.subject === undefined) return { allowed: false, reason: `safety refuses ${JSON.stringify(relative)}: it has no policy decision for this call` };
      const evaluation = evaluatePolicy(policy, { ...call.subject, paths: [item], argumentsHash: call.argumentsHash, root: call.root });
      if (evaluation.decision === 'allow') return ALLOWED;
      if (evaluation.decision === 'ask' && decided.some((path) => path === relative || path === '.' || relative.startsWith(`${path}/`))) return ALLOWED;
      const why = evaluation.decision === 'deny' ? evaluation.reason : `it was not what was approved (${evaluation.reason})`;
      return { allowed: false, reason: `safety refuses ${JSON.stringify(relative)}: ${why}` };
    },
  };
}
