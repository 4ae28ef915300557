import { createHarness, definePlugin, type ApprovalRequest, type ApprovalResponder, type Harness, type Logger, type ToolResult } from '@weir/core';
import { createFsTools, type FsToolsOptions } from '../../src/tools/fs-tools.js';
import type { OpenStrategy } from '../../src/confinement/held-directory.js';

export interface FsHarnessOptions extends Omit<FsToolsOptions, 'root'> {
  /** Force an open strategy (default: what the platform offers). */
  readonly strategy?: OpenStrategy;
  /** Install an approval responder; without one, calls that need approval are denied. */
  readonly approver?: ApprovalResponder;
  /** The harness's logger (default: silent). */
  readonly logger?: Logger;
}

/** A real harness with tools-fs loaded on `root`, recording every result and approval request. */
export interface FsHarness {
  readonly harness: Harness;
  /** Every result announced so far, in order. */
  readonly results: ToolResult[];
  /** Every approval request the responder saw. */
  readonly approvals: ApprovalRequest[];
  /** Runs one call through the pipeline. */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

let callCounter = 0;

export async function createFsHarness(root: string, options: FsHarnessOptions = {}): Promise<FsHarness> {
  const { strategy, approver, logger, ...toolOptions } = options;
  const harness = createHarness(logger === undefined ? {} : { logger });
  const results: ToolResult[] = [];
  const approvals: ApprovalRequest[] = [];
  harness.hooks.result.tap('test-recorder', (result) => {
    results.push(result);
  });
  await harness.use(createFsTools({ root, ...toolOptions }, { strategy }));
  if (approver !== undefined) {
    await harness.use(
      definePlugin({
        name: 'test-approver',
        setup(ctx) {
          ctx.approval.setResponder((request) => {
            approvals.push(request);
            return approver(request);
          });
        },
      }),
    );
  }
  return {
    harness,
    results,
    approvals,
    call: (name, args) => harness.executeToolCall({ id: `call-${++callCounter}`, name, arguments: args }),
    close: () => harness.close(),
  };
}

/** Throws when any recorded result (content or value) contains `marker`. */
export function assertNoMarker(results: readonly ToolResult[], marker: string): void {
  for (const result of results) {
    const seen = `${result.content}\n${result.ok ? JSON.stringify(result.value) : JSON.stringify(result.error)}`;
    if (seen.includes(marker)) throw new Error(`a result of ${result.toolName} contains outside content: ${seen.slice(0, 200)}`);
  }
}

/** One log call a `recordingLogger` saw. */
export interface LogRecord {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string | undefined;
}

/** A pino-shaped logger that keeps every call (with the bindings of its children) in `records`. */
export function recordingLogger(records: LogRecord[] = [], bindings: Record<string, unknown> = {}): Logger & { records: LogRecord[] } {
  const log = (level: LogRecord['level']) => (first: unknown, ...rest: unknown[]) => {
    const fields = typeof first === 'object' && first !== null ? { ...bindings, ...(first as Record<string, unknown>) } : { ...bindings };
    const message = typeof first === 'string' ? first : typeof rest[0] === 'string' ? rest[0] : undefined;
    records.push({ level, fields, message });
  };
  return {
    records,
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (more) => recordingLogger(records, { ...bindings, ...more }),
  };
}
