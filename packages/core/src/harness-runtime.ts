import type { ApprovalGate } from './approval.js';
import type { GuardList } from './guards.js';
import type { HarnessHooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { SandboxSlot } from './sandbox-slot.js';
import type { ToolRegistry } from './tool-registry.js';

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
}
