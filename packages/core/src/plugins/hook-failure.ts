/** The names of the six stages, as error messages and logs use them. */
export type StageName = 'prepareExecution' | 'execute' | 'createSuccessResult' | 'postExecute' | 'finalizeContent' | 'result';

/**
 * A tap (or guard, or responder) that threw. The pipeline turns it into a `HOOK_FAILED` result
 * naming the plugin and the stage; it never escapes to the caller.
 */
export class HookFailure extends Error {
  override readonly name = 'HookFailure';
  readonly stage: StageName;
  readonly tapName: string;

  constructor(stage: StageName, tapName: string, cause: unknown) {
    super(`"${tapName}" failed in ${stage}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.stage = stage;
    this.tapName = tapName;
  }
}
