/** The median of `values` (which it sorts in place). */
export function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const middle = values.length >> 1;
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}

/** Nanoseconds per iteration of `run(iterations)`, measured once. */
export async function nsPerIteration(run: (iterations: number) => Promise<void>, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  await run(iterations);
  return Number(process.hrtime.bigint() - start) / iterations;
}

/**
 * Measures every case in interleaved rounds (so a burst of noise on this shared machine hits
 * all cases alike) after a warm-up, and returns each case's median nanoseconds per iteration.
 */
export async function interleavedMedians(
  cases: Record<string, (iterations: number) => Promise<void>>,
  options: { iterations: number; rounds: number; warmupRounds: number },
): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < options.warmupRounds + options.rounds; round += 1) {
    for (const [name, run] of Object.entries(cases)) {
      const ns = await nsPerIteration(run, options.iterations);
      if (round >= options.warmupRounds) samples[name]!.push(ns);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** Prints rows as an aligned plain-text table. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
