import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import { METRIC } from './semconv.js';

/** The metric instruments, made once per plugin from the meter. */
export interface Instruments {
  /** Seconds per tool call, by tool and outcome (`gen_ai.execute_tool.duration`). */
  readonly toolDuration: Histogram;
  /** Seconds per model call (`gen_ai.client.operation.duration`). */
  readonly operationDuration: Histogram;
  /** Tokens per model call, by `gen_ai.token.type` (`gen_ai.client.token.usage`). */
  readonly tokenUsage: Histogram;
  /** Tokens per agent turn, by `gen_ai.token.type`. */
  readonly turnTokens: Histogram;
  /** Approvals asked, by tool. */
  readonly approvalsAsked: Counter;
  /** Approvals answered, by tool and decision (`allow`, `deny`). */
  readonly approvalsAnswered: Counter;
  /** Seconds an approval took to be answered. */
  readonly approvalWait: Histogram;
}

/** Creates the instruments; with the API's no-op meter they record nothing and cost a call each. */
export function createInstruments(meter: Meter): Instruments {
  return Object.freeze({
    toolDuration: meter.createHistogram(METRIC.toolDuration, { unit: 's', description: 'Duration of tool executions.' }),
    operationDuration: meter.createHistogram(METRIC.operationDuration, { unit: 's', description: 'GenAI operation duration.' }),
    tokenUsage: meter.createHistogram(METRIC.tokenUsage, { unit: '{token}', description: 'Number of input and output tokens used.' }),
    turnTokens: meter.createHistogram(METRIC.turnTokens, { unit: '{token}', description: 'Tokens used by one agent turn, all its model calls together.' }),
    approvalsAsked: meter.createCounter(METRIC.approvalsAsked, { unit: '{approval}', description: 'Tool calls a guard sent for approval.' }),
    approvalsAnswered: meter.createCounter(METRIC.approvalsAnswered, { unit: '{approval}', description: 'Approvals answered, by decision.' }),
    approvalWait: meter.createHistogram(METRIC.approvalWait, { unit: 's', description: 'Time from asking for approval to its answer.' }),
  });
}
