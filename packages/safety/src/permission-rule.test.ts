import { describe, expect, it } from 'vitest';
import { isHarnessError } from '@weir/core';
import type { PathArgument } from './path-arguments.js';
import { compileRule, compileRules, ruleMatches, type PermissionRule } from './permission-rule.js';

/** A path the sandbox resolved (`relativePath`), or refused (`undefined`). */
function at(literal: string, relativePath?: string): PathArgument {
  return relativePath === undefined
    ? { argument: 'path', literal, canonical: undefined, refusal: { kind: 'refused', message: 'outside' } }
    : { argument: 'path', literal, canonical: { path: `/ws/${relativePath}`, relativePath }, refusal: undefined };
}

const matches = (rule: PermissionRule, tool: string, paths: PathArgument[]) => ruleMatches(compileRule(rule, 'test'), tool, paths);

describe('compileRules', () => {
  it.each([
    ['no effect', { path: '.env' }],
    ['two effects', { allow: 'a', deny: 'a' }],
    ['an unknown key (a typo would widen the rule)', { deny: 'write_file', paths: '.env' }],
    ['an empty tool pattern', { deny: '' }],
    ['an empty path list', { deny: 'write_file', path: [] }],
    ['a non-string path', { deny: 'write_file', path: 3 }],
    ['not an object', 'deny write_file'],
  ])('refuses a rule with %s (INVALID_PLUGIN)', (_name, rule) => {
    let thrown: unknown;
    try {
      compileRules([rule as unknown as PermissionRule], 'test');
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown, 'INVALID_PLUGIN')).toBe(true);
  });

  it('refuses rules that are not an array', () => {
    expect(() => compileRules({ deny: 'x' } as never, 'test')).toThrow(/rules must be an array/);
  });

  it('labels a rule the way it is written', () => {
    expect(compileRule({ deny: 'write_file', path: '.env' }, 't').label).toBe('{ deny: "write_file", path: ".env" }');
    expect(compileRule({ allow: ['a', 'b'] }, 't').label).toBe('{ allow: ["a","b"] }');
  });
});

describe('ruleMatches', () => {
  it('matches tools by name or glob, and a rule without path matches every call of them', () => {
    expect(matches({ deny: 'write_file' }, 'write_file', [])).toBe(true);
    expect(matches({ deny: 'write_file' }, 'write_files', [])).toBe(false);
    expect(matches({ deny: 'write_*' }, 'write_file', [])).toBe(true);
    expect(matches({ deny: '*' }, 'anything', [])).toBe(true);
    expect(matches({ deny: ['a', 'b'] }, 'b', [])).toBe(true);
  });

  it('a deny rule matches the literal path, its lexical form or the canonical path: any one is enough', () => {
    const rule = { deny: 'write_file', path: '.env' } as const;
    expect(matches(rule, 'write_file', [at('.env', '.env')])).toBe(true);
    expect(matches(rule, 'write_file', [at('./.env', '.env')])).toBe(true);
    expect(matches(rule, 'write_file', [at('src/../.env', '.env')])).toBe(true);
    // Through a symlink: the literal is innocent, the canonical path is not.
    expect(matches(rule, 'write_file', [at('config-link', '.env')])).toBe(true);
    // Refused by the sandbox, or no sandbox: the literal still counts.
    expect(matches(rule, 'write_file', [at('.env')])).toBe(true);
    expect(matches(rule, 'write_file', [at('a/.env', 'a/.env')])).toBe(false);
    expect(matches(rule, 'write_file', [at('notes.md', 'notes.md')])).toBe(false);
  });

  it('a deny rule folds case (.ENV is .env on a case-insensitive volume) and NFD/NFC spellings', () => {
    expect(matches({ deny: 'read_file', path: '.env' }, 'read_file', [at('.ENV', '.ENV')])).toBe(true);
    expect(matches({ ask: '*', path: '**/.git/**' }, 'write_file', [at('.GIT/hooks/pre-commit')])).toBe(true);
    expect(matches({ deny: 'read_file', path: 'caf\u00e9.md' }, 'read_file', [at('cafe\u0301.md')])).toBe(true);
  });

  it('an allow rule needs a canonical path, and both the literal and the canonical path must match', () => {
    const rule = { allow: 'read_file', path: 'src/**' } as const;
    expect(matches(rule, 'read_file', [at('src/a.ts', 'src/a.ts')])).toBe(true);
    expect(matches(rule, 'read_file', [at('./src/a.ts', 'src/a.ts')])).toBe(true);
    // A symlink inside src pointing elsewhere: the literal matches, the canonical path does not.
    expect(matches(rule, 'read_file', [at('src/link', 'secrets/key')])).toBe(false);
    // A link elsewhere pointing into src: the canonical path matches, the literal does not.
    expect(matches(rule, 'read_file', [at('inner/a.ts', 'src/a.ts')])).toBe(false);
    expect(matches(rule, 'read_file', [at('src/../.env', '.env')])).toBe(false);
    // Refused by the sandbox or no sandbox: never allowed by a path rule (fail closed).
    expect(matches(rule, 'read_file', [at('src/a.ts')])).toBe(false);
    // No path at all: a path rule cannot allow.
    expect(matches(rule, 'read_file', [])).toBe(false);
    // Every path must pass.
    expect(matches(rule, 'read_file', [at('src/a.ts', 'src/a.ts'), at('b.ts', 'b.ts')])).toBe(false);
  });

  it('an allow rule does not fold case', () => {
    expect(matches({ allow: 'write_file', path: 'src/**' }, 'write_file', [at('SRC/a.ts', 'SRC/a.ts')])).toBe(false);
  });

  it('a path that is not a string matches no path pattern', () => {
    const notString: PathArgument = { argument: 'path', literal: undefined, canonical: undefined, refusal: { kind: 'not-a-string', message: '' } };
    expect(matches({ deny: 'x', path: '**' }, 'x', [notString])).toBe(false);
    expect(matches({ allow: 'x', path: '**' }, 'x', [notString])).toBe(false);
  });
});
