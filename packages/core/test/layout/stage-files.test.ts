import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STAGES, type StageName } from '@weir/core';
import { importGraph, sourceFiles } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** Where each stage lives: the file that runs the stage's hook. docs/design.md shows the same map. */
const STAGE_FILES: Readonly<Record<(typeof STAGES)[number], string>> = {
  prepareExecution: 'pipeline/prepare-execution.ts',
  execute: 'pipeline/dispatch-call.ts',
  createSuccessResult: 'pipeline/create-success-result.ts',
  postExecute: 'pipeline/post-execute.ts',
  finalizeContent: 'pipeline/finalize-content.ts',
  result: 'pipeline/announce-result.ts',
};

const read = (file: string) => readFileSync(`${SRC}${file}`, 'utf8');
/** The files that run a stage's hook (`hooks.<stage>.call(` or `.promise(`). */
const runnersOf = (stage: StageName) =>
  sourceFiles(SRC).filter((file) => !file.endsWith('.test.ts') && new RegExp(`hooks\\.${stage}\\.(call|promise)\\(`).test(read(file)));

describe('each stage has its file', () => {
  it('maps every entry of STAGES, and nothing else', () => {
    expect(Object.keys(STAGE_FILES)).toEqual([...STAGES]);
  });

  it.each(STAGES.map((stage) => [stage, STAGE_FILES[stage]] as const))('%s runs in %s, and only there', (stage, file) => {
    expect(runnersOf(stage)).toEqual([file]);
  });

  it('names the stages in the order of the README table', () => {
    const table = readFileSync(README, 'utf8').split('## The six stages')[1]!.split('\n## ')[0]!;
    const rows = table.split('\n').filter((line) => /^\| \d /.test(line));
    const named = rows.flatMap((row) => [...row.split('|')[2]!.matchAll(/`(\w+)`/g)].map((match) => match[1]));
    expect(named).toEqual([...STAGES]);
  });

  it('strings stages 1 to 6a together in the call runner, which imports each from its file', () => {
    const imports = importGraph(SRC).get('pipeline/run-tool-call.ts');
    for (const stage of STAGES.filter((name) => name !== 'result')) expect(imports).toContain(STAGE_FILES[stage]);
    // 6b announces in call order, so the batch runner (and the harness, for one call) does it.
    expect(importGraph(SRC).get('pipeline/run-tool-calls.ts')).toContain(STAGE_FILES.result);
  });
});
