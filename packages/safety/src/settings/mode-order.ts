import { SAFETY_MODES, type SafetyMode } from './safety-mode.js';

/** The stricter of two modes (`read-only` is the strictest, `allow-all-unsafe` the least). */
export function stricterMode(a: SafetyMode, b: SafetyMode): SafetyMode {
  return SAFETY_MODES.indexOf(a) <= SAFETY_MODES.indexOf(b) ? a : b;
}

/** True when `candidate` runs more without asking than `limit`. */
export function morePermissive(candidate: SafetyMode, limit: SafetyMode): boolean {
  return SAFETY_MODES.indexOf(candidate) > SAFETY_MODES.indexOf(limit);
}
