/**
 * The script every loop in the peer benchmark follows: K model answers that each call one tool,
 * then one final text answer. The mock models of every peer and the bare baseline ask the same
 * plan what to answer, so all loops do the same work and pay the same bookkeeping cost; the
 * counters let each script check after a turn that the framework made exactly K + 1 model calls
 * and K tool executions (a loop that skipped or doubled work would otherwise look fast or slow).
 */
export class StepPlan {
  /** Tool steps the current turn should take before the model answers with text. */
  private toolSteps = 0;
  /** Model calls made in the current turn. */
  modelCalls = 0;
  /** Tool executions in the current turn. */
  toolRuns = 0;
  /**
   * Set by the long-run probe when its time or heap budget is spent: the model then answers with
   * text at its next call, so a peer whose cost grows with history still ends its turn normally.
   */
  stopEarly = false;
  /** Called after every tool execution with the 1-based step number (the long-run probe's hook). */
  onToolRun: ((step: number) => void) | undefined = undefined;

  /** Starts a turn of `k` tool steps. */
  begin(k: number): void {
    this.toolSteps = k;
    this.modelCalls = 0;
    this.toolRuns = 0;
    this.stopEarly = false;
  }

  /** Asked by a mock model on each call: true means "answer with one tool call". */
  nextIsToolCall(): boolean {
    const index = this.modelCalls++;
    return index < this.toolSteps && !this.stopEarly;
  }

  /** An id for the tool call the mock model is about to make, unique within the turn. */
  callId(): string {
    return `call_${this.modelCalls}`;
  }

  /** Told by the trivial tool each time it runs. */
  toolRan(): void {
    this.toolRuns++;
    if (this.onToolRun !== undefined) this.onToolRun(this.toolRuns);
  }

  /** Throws unless the turn that just ended did exactly `k` tool steps and `k + 1` model calls. */
  assertTurn(k: number, who: string): void {
    if (this.toolRuns !== k || this.modelCalls !== k + 1) {
      throw new Error(
        `${who}: expected ${k} tool runs and ${k + 1} model calls, got ${this.toolRuns} and ${this.modelCalls}`,
      );
    }
  }
}

/** The arguments every mock model sends to the trivial `echo` tool. */
export const ECHO_ARGUMENTS = '{"text":"hello"}';

/** The final answer every mock model gives after its tool steps. */
export const FINAL_TEXT = 'done';
