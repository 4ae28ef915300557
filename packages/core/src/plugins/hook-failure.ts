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
    super(`"${tapName}" failed in ${stage}: ${describeThrown(cause)}`, { cause });
    this.stage = stage;
    this.tapName = tapName;
  }
}

/**
 * A short description of a thrown value. Plugins may throw anything (a string, `undefined`, an
 * object whose `toString` throws): describing it must never throw in turn.
 */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return typeof value.message === 'string' ? value.message : 'an error without a message';
  if (typeof value === 'string') return value;
  if (value === undefined || value === null || typeof value !== 'object') return `a non-error value was thrown: ${String(value)}`;
  try {
    return `a non-error value was thrown: ${JSON.stringify(value)?.slice(0, 200) ?? String(value)}`;
  } catch {
    return 'a non-error value was thrown';
  }
}
