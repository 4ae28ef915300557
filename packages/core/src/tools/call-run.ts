/** The run a call belongs to: a turn of an agent, one `executeToolCalls` batch, a subagent's run under a call. */
export interface CallRun {
  readonly id: string;
  /** The key of the call this run works for (a subagent's run under its parent's call). */
  readonly parentCallKey?: string;
}
