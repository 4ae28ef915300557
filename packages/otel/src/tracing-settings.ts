import type { Tracer } from '@opentelemetry/api';
import type { Instruments } from './instruments.js';
import type { Api } from './load-api.js';

/** What the span writers share: the API, the tracer, the instruments and the content switch. */
export interface TracingSettings {
  readonly api: Api;
  readonly tracer: Tracer;
  readonly instruments: Instruments;
  /** Arguments, results, messages and free-text reasons are written only when this is on. */
  readonly captureContent: boolean;
  /** `gen_ai.agent.name` of the `invoke_agent` spans. */
  readonly agentName: string;
}
