import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

const RUNS = 50;
const EDITS = 6;

describe('parallel edits of one file in one batch', () => {
  const ws = useWorkspace();

  it(`keeps every change: ${EDITS} edit_file calls in one batch, ${RUNS} times`, async () => {
    const original = Array.from({ length: EDITS }, (_, index) => `line ${index}: old`).join('\n') + '\n';
    await ws.fx.file('shared.ts', original);
    const h = await ws.harness();
    for (let run = 0; run < RUNS; run += 1) {
      await writeFile(ws.fx.inRoot('shared.ts'), original);
      expect((await h.call('read_file', { path: 'shared.ts' })).ok).toBe(true);
      const calls = Array.from({ length: EDITS }, (_, index) => ({
        id: `run${run}-edit${index}`,
        name: 'edit_file',
        arguments: { path: 'shared.ts', old_string: `line ${index}: old`, new_string: `line ${index}: new ${run}` },
      }));
      const results = await h.harness.executeToolCalls(calls);
      expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(Array(EDITS).fill('ok'));
      const text = await readFile(ws.fx.inRoot('shared.ts'), 'utf8');
      expect(text).toBe(Array.from({ length: EDITS }, (_, index) => `line ${index}: new ${run}`).join('\n') + '\n');
    }
  }, 60_000);

  it('serialises write_file and edit_file on one path: each applies whole to what the one before left, none fails', async () => {
    await ws.fx.file('w.txt', 'one\ntwo\n');
    const h = await ws.harness();
    await h.call('read_file', { path: 'w.txt' });
    const results = await h.harness.executeToolCalls([
      { id: 'w1', name: 'write_file', arguments: { path: 'w.txt', content: 'one\ntwo\n' } },
      { id: 'e1', name: 'edit_file', arguments: { path: 'w.txt', old_string: 'two', new_string: 'three' } },
      { id: 'e2', name: 'edit_file', arguments: { path: 'w.txt', old_string: 'one', new_string: 'zero' } },
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok', 'ok', 'ok']);
    // The pipeline does not promise the order in which a batch's bodies start: any serial order is right.
    expect(['zero\nthree\n', 'one\nthree\n', 'zero\ntwo\n', 'one\ntwo\n']).toContain(await readFile(ws.fx.inRoot('w.txt'), 'utf8'));
  });
});
