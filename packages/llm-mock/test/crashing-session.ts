import { defineTool, type Session, type SessionEntry } from '@weir/core';

/**
 * `session` as seen by a process that is killed just before it writes the first entry `dies`
 * picks: that append, and every append or sync after it, never settles and never reaches the
 * store. What the store holds is what the killed process left; close the real session afterwards
 * (it releases the lock like the dead process's stale lock would be taken over) and open it again.
 */
export function crashingSession(session: Session, dies: (entry: SessionEntry) => boolean) {
  let dead = false;
  let died!: () => void;
  const crashed = new Promise<void>((resolve) => (died = resolve));
  const never = new Promise<never>(() => undefined);
  const wrapped: Session = {
    id: session.id,
    recovery: session.recovery,
    records: () => session.records(),
    history: (options) => session.history(options),
    append(entry, options) {
      if (!dead && dies(entry)) {
        dead = true;
        died();
      }
      return dead ? never : session.append(entry, options);
    },
    sync: () => (dead ? never : session.sync()),
    close: () => session.close(),
  };
  return { session: wrapped, crashed };
}

/** A side-effecting tool, `append_line { line }`: each run of its body is written down in `runs`. */
export function appendLineTool(runs: string[]) {
  return defineTool({
    name: 'append_line',
    description: 'Appends a line to the log.',
    tier: 'write',
    parameters: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'], additionalProperties: false },
    execute: ({ line }) => {
      runs.push(line);
      return `appended: ${line}`;
    },
  });
}
