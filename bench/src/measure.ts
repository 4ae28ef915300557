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
 * Like `interleavedMedians`, with each case's median CPU time per iteration beside its wall time.
 * On a shared machine the wall time counts the time other processes held the cores; the CPU time
 * of a loop that never waits for I/O does not (it does count the collector's helper threads).
 */
export async function interleavedMediansWithCpu(
  cases: Record<string, (iterations: number) => Promise<void>>,
  options: { iterations: number; rounds: number; warmupRounds: number },
): Promise<{ readonly wall: Record<string, number>; readonly cpu: Record<string, number> }> {
  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < options.warmupRounds + options.rounds; round += 1) {
    for (const [name, run] of Object.entries(cases)) {
      const wallStart = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      await run(options.iterations);
      const used = process.cpuUsage(cpuStart);
      if (round < options.warmupRounds) continue;
      wall[name]!.push(Number(process.hrtime.bigint() - wallStart) / options.iterations);
      cpu[name]!.push(((used.user + used.system) * 1000) / options.iterations);
    }
  }
  const medians = (samples: Record<string, number[]>) => Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  return { wall: medians(wall), cpu: medians(cpu) };
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
