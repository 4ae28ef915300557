import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FinalAnswer, FINAL_ANSWER_TOOL } from './final-answer.js';

const call = (args: unknown) => ({ id: 'f1', name: FINAL_ANSWER_TOOL, arguments: args as Record<string, unknown> });

describe('FinalAnswer', () => {
  it('takes a Standard Schema: the model sees its JSON Schema, its own validate runs (transforms apply)', async () => {
    const answer = new FinalAnswer(z.object({ city: z.string().transform((city) => city.toUpperCase()), population: z.number().int().min(0) }), 3);
    expect(answer.tool.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } } });

    const good = await answer.check(call({ city: 'ghent', population: 3 }));
    expect(good).toMatchObject({ ok: true, value: { city: 'GHENT', population: 3 }, result: { ok: true, content: 'Final answer accepted.' } });

    const bad = await answer.check(call('{"city":"ghent","population":-1}'));
    expect(bad.ok).toBe(false);
    expect(bad.result.content).toContain('INVALID_ARGUMENTS');
    expect(bad.result.content).toContain('/population:');
    expect(bad.result.content).toContain('(2 more attempts)');
  });

  it('reads arguments as stage 1 does: bad JSON and too-deep nesting are refused with a reason', async () => {
    const answer = new FinalAnswer({ type: 'object' }, 5);
    expect((await answer.check(call('{oops'))).result.content).toContain('not valid JSON');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 70; i++) deep = { d: deep };
    expect((await answer.check(call(deep))).result.content).toContain('nest deeper than 64');
  });

  it('counts invalid answers against the bound, plain-text ones included', async () => {
    const answer = new FinalAnswer({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, 2);
    expect(await answer.checkText('{"n": 1}')).toEqual({ ok: true, value: { n: 1 } });
    expect(answer.exhausted).toBe(false);
    expect((await answer.checkText('one')).ok).toBe(false);
    await answer.check(call({}));
    expect(answer.exhausted).toBe(true);
  });
});
