/** Lines compared at most; past it, the changed middle is shown whole (a diff must stay cheap). */
const MAX_LINES = 400;

/**
 * A short line diff of two texts: the lines they share at the start and end are left out, and the
 * changed middle is shown as `- old` and `+ new` lines (with the common lines inside it, marked
 * `  `, found by a longest-common-subsequence walk when both sides are small). Never throws.
 */
export function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const oldLines = a.slice(start, endA);
  const newLines = b.slice(start, endB);
  if (oldLines.length > MAX_LINES || newLines.length > MAX_LINES) return [...oldLines.map((line) => `- ${line}`), ...newLines.map((line) => `+ ${line}`)].join('\n');
  // lengths[i][j]: the longest common subsequence of oldLines[i..] and newLines[j..].
  const lengths = Array.from({ length: oldLines.length + 1 }, () => new Array<number>(newLines.length + 1).fill(0));
  for (let i = oldLines.length - 1; i >= 0; i -= 1) {
    for (let j = newLines.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = oldLines[i] === newLines[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < oldLines.length || j < newLines.length) {
    if (i < oldLines.length && j < newLines.length && oldLines[i] === newLines[j]) {
      out.push(`  ${oldLines[i]}`);
      i += 1;
      j += 1;
    } else if (i < oldLines.length && (j === newLines.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      out.push(`- ${oldLines[i]}`);
      i += 1;
    } else {
      out.push(`+ ${newLines[j]}`);
      j += 1;
    }
  }
  return out.join('\n');
}
