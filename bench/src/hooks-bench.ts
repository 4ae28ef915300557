import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, definePlugin, type Harness } from '@weir/core';
import { commandHooks } from '@weir/hooks';
import { echoPlugin } from './echo-tool.js';
import { interleavedMedians, printTable } from './measure.js';

/**
 * What a PreToolUse command hook adds to a call, per runtime (`sh`, `python3`, `node`), beside a
 * plain guard (a function) and no guard at all. Each hook reads the JSON payload on stdin and
 * answers `{}` (no decision), as most published guards do for a call they let through: the cost is
 * the process start, the payload and the reading of the answer.
 */
export async function hooksBench(options: { quick?: boolean } = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-hooks-bench-'));
  writeFileSync(join(dir, 'hook.sh'), 'cat > /dev/null\necho "{}"\n');
  writeFileSync(join(dir, 'hook.py'), 'import json, sys\njson.load(sys.stdin)\nprint("{}")\n');
  writeFileSync(join(dir, 'hook.js'), 'let s = "";\nprocess.stdin.on("data", (c) => (s += c)).on("end", () => { JSON.parse(s); console.log("{}"); });\n');
  const harnesses: Record<string, Harness> = {};
  const make = async (name: string, extra?: Parameters<Harness['use']>[0]) => {
    const harness = createHarness();
    await harness.use(echoPlugin());
    if (extra !== undefined) await harness.use(extra);
    harnesses[name] = harness;
  };
  await make('no guard');
  await make('plain guard (a function)', definePlugin({ name: 'plain', setup: (ctx) => void ctx.guards.add((call) => (String(call.arguments.text).includes('rm -rf') ? { decision: 'deny' } : undefined)) }));
  for (const [name, command] of [
    ['PreToolUse hook: sh', 'sh hook.sh'],
    ['PreToolUse hook: python3', 'python3 hook.py'],
    ['PreToolUse hook: node', 'node hook.js'],
  ] as const) {
    const hooks = commandHooks({ projectDir: dir, layers: [{ name: 'bench', file: join(dir, 'settings.json'), trusted: true, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } }] });
    await make(name, hooks.plugin);
  }
  const call = { id: 'c1', name: 'echo', arguments: { text: 'hi' } };
  const cases = Object.fromEntries(
    Object.entries(harnesses).map(([name, harness]) => [
      name,
      async (iterations: number) => {
        for (let i = 0; i < iterations; i += 1) {
          const result = await harness.executeToolCall(call);
          if (!result.ok) throw new Error(`${name}: ${result.content}`);
        }
      },
    ]),
  );
  const medians = await interleavedMedians(cases, { iterations: options.quick ? 3 : 20, rounds: options.quick ? 2 : 7, warmupRounds: 1 });
  const base = medians['no guard']!;
  console.log('\nhooks: the cost of a PreToolUse command hook per call (median of interleaved rounds; the hook answers {})');
  printTable(
    ['case', 'per call', 'added over no guard'],
    Object.entries(medians).map(([name, ns]) => [name, formatNs(ns), name === 'no guard' ? '' : formatNs(ns - base)]),
  );
  for (const harness of Object.values(harnesses)) await harness.close();
  rmSync(dir, { recursive: true, force: true });
}

function formatNs(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
}
