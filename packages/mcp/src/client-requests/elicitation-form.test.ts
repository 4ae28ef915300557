import { describe, expect, it } from 'vitest';
import { checkAnswer, formFields, withDefaults } from './elicitation-form.js';

const schema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date', default: '2026-12-02' },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    code: { type: 'string', minLength: 2, maxLength: 3 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    picks: { type: 'array', items: { anyOf: [{ const: 'x' }, { const: 'y' }] }, minItems: 1, maxItems: 1 },
    ok: { type: 'boolean', default: false },
  },
  required: ['email'],
};

describe('elicitation forms', () => {
  it('reads the fields, with titled choices and defaults', () => {
    const read = formFields(schema);
    expect('fields' in read && read.fields.find((field) => field.name === 'size')).toEqual({ name: 'size', type: 'string', required: false, choices: ['s', 'l'] });
    expect('fields' in read && read.fields.find((field) => field.name === 'picks')?.choices).toEqual(['x', 'y']);
    expect(formFields({ type: 'object', properties: { nested: { type: 'object' } } })).toEqual({ error: expect.stringContaining('field "nested" is of type "object"') });
    expect(formFields({ type: 'string' })).toEqual({ error: expect.stringContaining('not an object schema') });
  });

  it('fills only what the answer left out', () => {
    expect(withDefaults(schema, { ok: true })).toEqual({ ok: true, day: '2026-12-02' });
  });

  it('checks each constraint, naming the field', () => {
    const good = { email: 'a@b.c' };
    expect(checkAnswer(schema, good)).toBeUndefined();
    expect(checkAnswer(schema, {})).toBe('the required field "email" has no value');
    expect(checkAnswer(schema, { ...good, extra: 1 })).toBe('"extra" is not a field of the form');
    expect(checkAnswer(schema, { email: 'nope' })).toBe('field "email": expected an email address');
    expect(checkAnswer(schema, { ...good, site: 'not a uri' })).toBe('field "site": expected a URI');
    expect(checkAnswer(schema, { ...good, day: '2 Dec' })).toBe('field "day": expected a date (YYYY-MM-DD)');
    expect(checkAnswer(schema, { ...good, size: 'm' })).toBe('field "size": must be one of "s", "l"');
    expect(checkAnswer(schema, { ...good, code: 'abcd' })).toBe('field "code": must be at most 3 characters');
    expect(checkAnswer(schema, { ...good, ratio: 2 })).toBe('field "ratio": must be at most 1');
    expect(checkAnswer(schema, { ...good, picks: ['x', 'y'] })).toBe('field "picks": choose at most 1');
    expect(checkAnswer(schema, { ...good, picks: ['z'] })).toBe('field "picks": "z" is not one of "x", "y"');
    expect(checkAnswer(schema, { ...good, ok: 'yes' })).toBe('field "ok": expected true or false');
    expect(checkAnswer(schema, [])).toBe('the answer is not an object');
  });
});
