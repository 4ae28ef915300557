import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namespacedName } from './namespaced-name.js';

const LEGAL = /^[a-zA-Z0-9_-]{1,64}$/;

describe('namespacedName', () => {
  it('joins a namespace and a name with "__" when both are legal and short', () => {
    expect(namespacedName('github', 'create_issue')).toBe('github__create_issue');
  });

  it('makes any input a legal tool name, the same every time, and keeps distinct inputs distinct', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ minLength: 1, maxLength: 200 }), (namespace, name) => {
        const made = namespacedName(namespace, name);
        expect(made).toMatch(LEGAL);
        expect(namespacedName(namespace, name)).toBe(made);
      }),
    );
    expect(namespacedName('fs', 'a.b')).not.toBe(namespacedName('fs', 'a_b'));
    const long = 'x'.repeat(80);
    expect(namespacedName('srv', `${long}1`)).not.toBe(namespacedName('srv', `${long}2`));
    expect(namespacedName('srv', `${long}1`)).toHaveLength(64);
    expect(namespacedName('srv', `${long}1`).startsWith('srv__xxx')).toBe(true);
  });

  it('refuses an empty part, and a namespace that leaves no room for the name', () => {
    expect(() => namespacedName('', 'x')).toThrow(/namespace must be a non-empty string/);
    expect(() => namespacedName('github', '')).toThrow(/needs a non-empty name/);
    expect(() => namespacedName('n'.repeat(40), 'x')).toThrow(/too long/);
  });
});
