/**
 * An id for a tool call the provider sent without one (or with `""`): `call_<turn>_<position>`,
 * where `turn` counts the assistant answers in the conversation so far (the first answer is 1) and
 * `position` is the call's place in its answer. The same answer at the same point of the same
 * conversation always gets the same id, so a resumed session replays the ids it stored; `taken`
 * (every id already in the history or in this answer) keeps it unique: on a clash a suffix is added.
 * Never throws.
 */
export function synthesizeCallId(turn: number, position: number, taken: ReadonlySet<string>): string {
  const base = `call_${turn}_${position}`;
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}_${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
