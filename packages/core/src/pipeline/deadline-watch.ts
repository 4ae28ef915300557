/** Something with a deadline, on the shared watch. */
export interface Watched {
  /** `performance.now()` time at which `expire` runs, unless released first. */
  readonly deadline: number;
  readonly expire: () => void;
}

// One timer for every deadline of every call and every awaited plugin, armed for the earliest: a
// deadline costs a Set insertion and deletion instead of a timer of its own (most calls and plugin
// pieces settle long before theirs). The timer keeps the process alive only while something is
// watched: it is unref'd, not cleared, when nothing is.
const pending = new Set<Watched>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

/** Runs `entry.expire` at `entry.deadline` unless `release(entry)` comes first. */
export function watch(entry: Watched): void {
  pending.add(entry);
  if (entry.deadline < timerAt) arm(entry.deadline);
  else if (pending.size === 1) timer?.ref();
}

/** Takes `entry` off the watch; it never expires. Releasing twice, or an expired entry, is harmless. */
export function release(entry: Watched): void {
  if (pending.delete(entry) && pending.size === 0) timer?.unref();
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(sweep, Math.max(0, at - performance.now()));
}

function sweep(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  const expired: Watched[] = [];
  for (const entry of pending) {
    if (entry.deadline <= now) expired.push(entry);
    else if (entry.deadline < next) next = entry.deadline;
  }
  // Taken off before any runs: an expire that watches something new re-arms the timer itself.
  for (const entry of expired) pending.delete(entry);
  if (next !== Infinity) arm(next);
  for (const entry of expired) entry.expire();
}
