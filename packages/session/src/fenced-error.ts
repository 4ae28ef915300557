import { HarnessError } from '@weir/core';

/**
 * The error a store's write rejects with when its writer was taken over: `SESSION_FENCED`, naming
 * the epochs. `current` is the session's writer epoch now, when the store knows it.
 */
export function fenced(id: string, epoch: number, current?: number): HarnessError {
  const now = current === undefined ? 'another writer took it over' : `writer ${current} took it over`;
  return new HarnessError(
    'SESSION_FENCED',
    `Session ${id}: this writer (epoch ${epoch}) was fenced off: ${now}. Nothing more from it is recorded; open the session again to go on.`,
  );
}
