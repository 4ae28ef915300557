/**
 * A call a turn left waiting for an approval (`stopReason: 'awaiting_approval'`): it did not run,
 * its request is stored in the session as an `approval_request` record, and `agent.resume()` (in
 * any process that opens the session) runs it once an answer bound to `callKey` and
 * `argumentsHash` is stored there.
 */
export interface AwaitingApproval {
  readonly callId: string;
  /** The harness's key for this execution: the answer must name it. */
  readonly callKey: string;
  readonly toolName: string;
  /** The exact, final arguments the person is asked about; the body gets these or nothing. */
  readonly arguments: unknown;
  /** `argumentsHash(arguments)`: an answer for any other hash does not apply. */
  readonly argumentsHash: string;
  /** Why approval is needed (the asking guard's reason). */
  readonly reason: string | undefined;
  /** The owner of the guard that asked. */
  readonly askedBy: string | undefined;
}
