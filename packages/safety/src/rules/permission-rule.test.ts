import { describe, expect, it } from 'vitest';
import { isHarnessError } from '@weir/core';
import type { PathArgument } from './path-arguments.js';
import { compileRule, compileRules, ruleMatches, type PermissionRule } from './permission-rule.js';
import type { RuleSubject } from './rule-subject.js';

/** A path the sandbox resolved (`relativePath`), or refused (`undefined`). */
function at(literal: string, relativePath?: string): PathArgument {
  return relativePath === undefined
    ? { argument: 'path', literal, canonical: undefined, refusal: { kind: 'refused', message: 'outside' } }
    : { argument: 'path', literal, canonical: { path: `/ws/${relativePath}`, relativePath }, refusal: undefined };
}

const subject = (toolName: string, paths: PathArgument[], extra: Partial<RuleSubject> = {}): RuleSubject => ({ toolName, tier: 'write', action: undefined, server: undefined, arguments: {}, paths, ...extra });
const matches = (rule: PermissionRule, tool: string, paths: PathArgument[], extra: Partial<RuleSubject> = {}) => ruleMatches(compileRule(rule, 'test'), subject(tool, paths, extra));

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

  it('a path that is missing or not a string fails closed: deny and ask match it, allow never does', () => {
    const notString: PathArgument = { argument: 'path', literal: undefined, canonical: undefined, refusal: { kind: 'not-a-string', message: '' } };
    const missing: PathArgument = { argument: 'path', literal: undefined, canonical: undefined, refusal: { kind: 'missing', message: '' } };
    for (const item of [notString, missing]) {
      expect(matches({ deny: 'x', path: 'secrets/**' }, 'x', [item])).toBe(true);
      expect(matches({ ask: 'x', path: 'secrets/**' }, 'x', [item])).toBe(true);
      expect(matches({ allow: 'x', path: '**' }, 'x', [item])).toBe(false);
    }
  });
});

describe('rule keys: tool, action, tier, server, path', () => {
  const file = at('.env', '.env');

  it('a bare string still names a tool, and today\'s rules keep their meaning', () => {
    expect(matches({ deny: 'write_file', path: '.env' }, 'write_file', [file])).toBe(true);
    expect(matches({ deny: 'write_file', path: '.env' }, 'edit_file', [file], { action: 'edit' })).toBe(false);
    // "read" and "write" are tool names here, not an action or a tier.
    expect(matches({ deny: 'read' }, 'read', [])).toBe(true);
    expect(matches({ deny: 'write' }, 'write_file', [], { tier: 'write' })).toBe(false);
  });

  it('action read covers every tool that reads or lists, whatever its name', () => {
    const rule = { deny: { action: 'read', path: '.env' } } as const;
    expect(matches(rule, 'read_file', [file], { tier: 'read-only', action: 'read' })).toBe(true);
    expect(matches(rule, 'cat', [file], { tier: 'read-only', action: 'read' })).toBe(true);
    expect(matches(rule, 'list_dir', [file], { tier: 'read-only', action: 'list' })).toBe(true);
    expect(matches(rule, 'write_file', [file], { action: 'write' })).toBe(false);
  });

  it('action edit covers write, edit and delete: a deny no longer leaves edit_file free', () => {
    const rule = { deny: { action: 'edit', path: '.env' } } as const;
    for (const action of ['write', 'edit', 'delete'] as const) expect(matches(rule, `${action}_x`, [file], { action })).toBe(true);
    expect(matches(rule, 'read_file', [file], { tier: 'read-only', action: 'read' })).toBe(false);
    expect(matches({ deny: { action: 'write' } }, 'edit_file', [], { action: 'edit' })).toBe(false);
  });

  it('a tool that declares no action: deny and ask on an action cover what its tier could do, allow never', () => {
    expect(matches({ deny: { action: 'edit' } }, 'mystery', [], { tier: 'dangerous' })).toBe(true);
    expect(matches({ deny: { action: 'edit' } }, 'mystery', [], { tier: 'read-only' })).toBe(false);
    expect(matches({ ask: { action: 'read' } }, 'mystery', [], { tier: 'read-only' })).toBe(true);
    expect(matches({ allow: { action: 'read' } }, 'mystery', [], { tier: 'read-only' })).toBe(false);
  });

  it('tier and server', () => {
    expect(matches({ ask: { tier: 'dangerous' } }, 'x', [], { tier: 'dangerous' })).toBe(true);
    expect(matches({ ask: { tier: ['write', 'dangerous'] } }, 'x', [], { tier: 'read-only' })).toBe(false);
    expect(matches({ ask: { server: 'github' } }, 'github__create_issue', [], { server: 'github' })).toBe(true);
    expect(matches({ ask: { server: 'git*' } }, 'gitlab__x', [], { server: 'gitlab' })).toBe(true);
    expect(matches({ ask: { server: 'github' } }, 'create_issue', [], { server: undefined })).toBe(false);
  });

  it('every key given must match', () => {
    const rule = { deny: { server: 'fs', action: 'edit', path: 'src/**' } } as const;
    expect(matches(rule, 'fs__write', [at('src/a', 'src/a')], { server: 'fs', action: 'write' })).toBe(true);
    expect(matches(rule, 'fs__write', [at('lib/a', 'lib/a')], { server: 'fs', action: 'write' })).toBe(false);
    expect(matches(rule, 'fs__read', [at('src/a', 'src/a')], { server: 'fs', action: 'read' })).toBe(false);
    expect(matches(rule, 'other', [at('src/a', 'src/a')], { server: 'other', action: 'write' })).toBe(false);
  });

  it.each([
    ['an empty matcher', { deny: {} }],
    ['an unknown matcher key', { deny: { tools: 'x' } }],
    ['an unknown action', { deny: { action: 'execute' } }],
    ['an unknown tier', { deny: { tier: 'safe' } }],
    ['path twice', { deny: { path: 'a' }, path: 'b' }],
    ['an empty server', { ask: { server: '' } }],
  ])('refuses %s', (_name, rule) => {
    expect(() => compileRule(rule as never, 'test')).toThrow(/test/);
  });

  it('the key command takes shell command patterns, and refuses what is not one', () => {
    expect(compileRule({ deny: { tool: 'run_command', command: 'rm *' } }, 'test').label).toBe('{ deny: { tool: "run_command", command: "rm *" } }');
    expect(() => compileRule({ deny: { tool: 'run_command', command: 42 } } as never, 'test')).toThrow(/command: must be a command pattern/);
  });

  it('labels a matcher rule the way it is written', () => {
    expect(compileRule({ ask: { server: 'github' } }, 't').label).toBe('{ ask: { server: "github" } }');
    expect(compileRule({ deny: { action: 'read', path: ['.env', 'secrets/**'] } }, 't').label).toBe('{ deny: { action: "read", path: [".env","secrets/**"] } }');
  });
});
