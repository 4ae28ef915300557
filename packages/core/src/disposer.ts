/** Undoes one registration. Idempotent: calling it again does nothing. Never throws for a second call. */
export type Disposer = () => void;

/** Undoes a plugin load. Idempotent; the promise settles when every registration is gone. */
export type AsyncDisposer = () => Promise<void>;

/** Wraps `undo` so that only its first call runs. */
export function createDisposer(undo: () => void): Disposer {
  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    undo();
  };
}
