/** Why a rewind or redo was refused. */
export type CheckpointErrorCode = 'NO_SUCH_TURN' | 'NOTHING_TO_REDO' | 'INVALID_REWIND';

/** A rewind or redo that cannot be done, with a stable `code` and a one-line message. Nothing was changed. */
export class CheckpointError extends Error {
  readonly code: CheckpointErrorCode;

  constructor(code: CheckpointErrorCode, message: string) {
    super(message);
    this.name = 'CheckpointError';
    this.code = code;
  }
}
