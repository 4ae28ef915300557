export { createAgent, DEFAULT_MAX_STEPS } from './create-agent.js';
export type { Agent, AgentOptions, TurnOptions } from './create-agent.js';
export type { AgentEvent, AgentEventListener } from './agent-event.js';
export type { AgentStep, StopReason, TurnResult } from './turn-result.js';
export type { TurnEvent, TurnInfo } from './turn-event.js';
