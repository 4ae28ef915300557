import type { ApprovalGate } from './policy/approval.js';
import type { GuardList } from './policy/guards.js';
import type { HarnessHooks } from './plugins/hooks.js';
import type { Logger } from './logger.js';
import type { SandboxSlot } from './policy/sandbox-slot.js';
import type { ToolRegistry } from './tools/tool-registry.js';

/** Everything the pipeline reads from its harness. Plugins reach it only through their `ctx`. */
export interface HarnessRuntime {
  readonly tools: ToolRegistry;
  readonly hooks: HarnessHooks;
  readonly guards: GuardList;
  readonly approval: ApprovalGate;
  readonly sandbox: SandboxSlot;
  readonly logger: Logger;
  readonly defaultTimeoutMs: number;
  readonly approvalTimeoutMs: number;
  readonly maxContentChars: number;
  /** Cap on one image's bytes (decoded) in a result. */
  readonly maxImageBytes: number;
  /** Spacing of one call's delivered progress reports, in milliseconds. */
  readonly progressIntervalMs: number;
  readonly hookTimeoutMs: number;
  readonly disposeTimeoutMs: number;
}
