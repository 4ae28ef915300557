import { describe, expect, it } from 'vitest';
import type { GuardDecision, ToolTier } from '@weir/core';
import { evaluatePolicy, type Policy } from './evaluate-policy.js';
import type { PathArgument } from './path-arguments.js';
import { compileRule, compileRules, type PermissionRule } from './permission-rule.js';
import { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';
import { PROTECTED_PATHS, protectedPathGlobs } from '@weir/core';
import type { SafetyMode } from '../settings/safety-mode.js';
import { SessionGrants, sessionScopeFor } from '../approvals/session-grants.js';

function at(literal: string, relativePath?: string): PathArgument {
  return relativePath === undefined
    ? { argument: 'path', literal, canonical: undefined, refusal: { kind: 'no-sandbox', message: 'no sandbox' } }
    : { argument: 'path', literal, canonical: { path: `/ws/${relativePath}`, relativePath }, refusal: undefined };
}

function policy(mode: SafetyMode, rules: readonly PermissionRule[] = [], protectedPaths = DEFAULT_PROTECTED_PATHS, grants = new SessionGrants()): Policy {
  return { mode, rules: compileRules(rules, 'test'), protectedRule: protectedPaths.length === 0 ? undefined : compileRule({ ask: '*', path: protectedPaths }, 'test'), grants };
}

function decide(p: Policy, toolName: string, tier: ToolTier, paths: PathArgument[] = []) {
  return evaluatePolicy(p, { toolName, tier, action: undefined, server: undefined, arguments: {}, paths, argumentsHash: `hash-of-${toolName}-${paths.map((x) => x.literal).join(',')}`, root: '/ws' });
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

interface Row {
  readonly name: string;
  readonly mode: SafetyMode;
  readonly rules?: readonly PermissionRule[];
  readonly tool: string;
  readonly tier: ToolTier;
  readonly paths?: PathArgument[];
  readonly expected: GuardDecision;
}

const table: Row[] = [
  { name: 'read-only mode runs a read-only tool', mode: 'read-only', tool: 'read_file', tier: 'read-only', paths: [at('a', 'a')], expected: 'allow' },
  { name: 'read-only mode denies a write tool', mode: 'read-only', tool: 'write_file', tier: 'write', paths: [at('a', 'a')], expected: 'deny' },
  { name: 'read-only mode: an allow rule cannot widen it', mode: 'read-only', rules: [{ allow: 'write_file' }], tool: 'write_file', tier: 'write', expected: 'deny' },
  { name: 'ask mode asks for a write tool', mode: 'ask', tool: 'write_file', tier: 'write', paths: [at('a', 'a')], expected: 'ask' },
  { name: 'ask mode asks for a dangerous tool', mode: 'ask', tool: 'run_command', tier: 'dangerous', expected: 'ask' },
  { name: 'auto mode runs a write tool', mode: 'auto', tool: 'write_file', tier: 'write', paths: [at('a', 'a')], expected: 'allow' },
  { name: 'auto mode asks for a dangerous tool', mode: 'auto', tool: 'run_command', tier: 'dangerous', expected: 'ask' },
  { name: 'allow-all-unsafe runs a dangerous tool', mode: 'allow-all-unsafe', tool: 'run_command', tier: 'dangerous', expected: 'allow' },
  { name: 'an allow rule lifts an ask of the mode', mode: 'ask', rules: [{ allow: 'write_file', path: 'src/**' }], tool: 'write_file', tier: 'write', paths: [at('src/a.ts', 'src/a.ts')], expected: 'allow' },
  { name: 'an allow rule does not reach paths outside its pattern', mode: 'ask', rules: [{ allow: 'write_file', path: 'src/**' }], tool: 'write_file', tier: 'write', paths: [at('lib/a.ts', 'lib/a.ts')], expected: 'ask' },
  { name: 'an allow rule does not reach other tools', mode: 'ask', rules: [{ allow: 'write_file', path: 'src/**' }], tool: 'edit_file', tier: 'write', paths: [at('src/a.ts', 'src/a.ts')], expected: 'ask' },
  { name: 'an allow path rule fails closed without a canonical path', mode: 'ask', rules: [{ allow: 'write_file', path: 'src/**' }], tool: 'write_file', tier: 'write', paths: [at('src/a.ts')], expected: 'ask' },
  { name: 'an ask rule asks even in allow-all-unsafe', mode: 'allow-all-unsafe', rules: [{ ask: 'write_file', path: 'package.json' }], tool: 'write_file', tier: 'write', paths: [at('package.json', 'package.json')], expected: 'ask' },
  { name: 'an ask rule asks for a read-only tool', mode: 'ask', rules: [{ ask: 'read_file', path: '.env' }], tool: 'read_file', tier: 'read-only', paths: [at('.env', '.env')], expected: 'ask' },
  { name: 'a deny rule denies in allow-all-unsafe', mode: 'allow-all-unsafe', rules: [{ deny: 'write_file', path: '.env' }], tool: 'write_file', tier: 'write', paths: [at('.env', '.env')], expected: 'deny' },
  { name: 'a deny rule denies a read-only tool', mode: 'ask', rules: [{ deny: 'read_file', path: '**/.env' }], tool: 'read_file', tier: 'read-only', paths: [at('config/.env', 'config/.env')], expected: 'deny' },
  { name: 'a deny rule matches the literal path without a sandbox', mode: 'auto', rules: [{ deny: 'write_file', path: '.env' }], tool: 'write_file', tier: 'write', paths: [at('./.env')], expected: 'deny' },
  { name: 'a deny rule matches the canonical path behind a symlink', mode: 'auto', rules: [{ deny: 'write_file', path: '.env' }], tool: 'write_file', tier: 'write', paths: [at('innocent', '.env')], expected: 'deny' },
  { name: 'a deny rule folds case', mode: 'auto', rules: [{ deny: 'read_file', path: '.env' }], tool: 'read_file', tier: 'read-only', paths: [at('.Env', '.Env')], expected: 'deny' },
  { name: 'a protected path asks for a write tool in auto mode', mode: 'auto', tool: 'write_file', tier: 'write', paths: [at('.git/hooks/pre-commit', '.git/hooks/pre-commit')], expected: 'ask' },
  { name: 'a protected path asks in allow-all-unsafe, spelled in capitals, not existing yet', mode: 'allow-all-unsafe', tool: 'write_file', tier: 'write', paths: [at('.GIT/hooks/pre-commit')], expected: 'ask' },
  { name: 'a protected path asks even under an allow rule', mode: 'auto', rules: [{ allow: 'write_file', path: '**' }], tool: 'write_file', tier: 'write', paths: [at('.vscode/tasks.json', '.vscode/tasks.json')], expected: 'ask' },
  { name: 'a protected path does not ask for a read-only tool', mode: 'ask', tool: 'read_file', tier: 'read-only', paths: [at('.git/config', '.git/config')], expected: 'allow' },
  { name: 'the harness config dir is protected', mode: 'auto', tool: 'write_file', tier: 'write', paths: [at('.weir/settings.json')], expected: 'ask' },
  { name: 'a deny rule beats a protected path', mode: 'auto', rules: [{ deny: '*', path: '.git/**' }], tool: 'write_file', tier: 'write', paths: [at('.git/config', '.git/config')], expected: 'deny' },
];

describe('evaluatePolicy: the rule engine', () => {
  it.each(table)('$name', (row) => {
    expect(decide(policy(row.mode, row.rules), row.tool, row.tier, row.paths).decision).toBe(row.expected);
  });

  const denyBeatsAll: PermissionRule[] = [
    { allow: 'write_file', path: '.env' },
    { allow: '*' },
    { ask: 'write_file' },
    { deny: 'write_*', path: '**/.env' },
  ];
  it.each(permutations(denyBeatsAll).map((rules, index) => [index, rules] as const))('deny beats ask and allow, whatever the order and specificity (order %i)', (_index, rules) => {
    for (const mode of ['ask', 'auto', 'allow-all-unsafe'] as const) {
      const result = decide(policy(mode, rules), 'write_file', 'write', [at('.env', '.env')]);
      expect(result.decision).toBe('deny');
      expect(result.reason).toContain('{ deny: "write_*", path: "**/.env" }');
    }
  });

  const askBeatsAllow: PermissionRule[] = [{ allow: 'write_file', path: 'src/**' }, { allow: '*' }, { ask: 'write_file', path: 'src/generated/**' }];
  it.each(permutations(askBeatsAllow).map((rules, index) => [index, rules] as const))('ask beats allow, whatever the order (order %i)', (_index, rules) => {
    const result = decide(policy('allow-all-unsafe', rules), 'write_file', 'write', [at('src/generated/x.ts', 'src/generated/x.ts')]);
    expect(result.decision).toBe('ask');
    // An ask rule asks every time: no session answer is offered for it.
    expect(result.sessionScope).toBeUndefined();
  });

  it('a deny rule applies to a call when any one of its paths matches', () => {
    const result = decide(policy('auto', [{ deny: 'write_file', path: '.env' }]), 'write_file', 'write', [at('a.txt', 'a.txt'), at('.env', '.env')]);
    expect(result.decision).toBe('deny');
  });

  it('explains the decision in words the model and the person can act on', () => {
    expect(decide(policy('read-only'), 'write_file', 'write').reason).toBe('safety mode "read-only" runs only read-only tools, and write_file is a write tool.');
    expect(decide(policy('ask'), 'write_file', 'write', [at('a', 'a')]).reason).toBe('write_file is a write tool, and safety mode "ask" asks before write tools run.');
    expect(decide(policy('auto', [{ deny: 'write_file', path: '.env' }]), 'write_file', 'write', [at('.env')]).reason).toBe(
      'the safety rule { deny: "write_file", path: ".env" } forbids it (path ".env").',
    );
    const refused: PathArgument = { argument: 'path', literal: '../x', canonical: undefined, refusal: { kind: 'refused', message: 'the sandbox refused it (PATH_OUTSIDE_WORKSPACE: outside)' } };
    expect(decide(policy('ask'), 'write_file', 'write', [refused]).reason).toContain('Note: path "../x": the sandbox refused it (PATH_OUTSIDE_WORKSPACE: outside).');
  });

  it('offers a session scope only for an ask that comes from the mode', () => {
    expect(decide(policy('ask'), 'write_file', 'write', [at('src/a.ts', 'src/a.ts')]).sessionScope).toMatchObject({ kind: 'paths', directories: ['src'] });
    expect(decide(policy('auto'), 'write_file', 'write', [at('.git/config', '.git/config')]).sessionScope).toBeUndefined();
    expect(decide(policy('auto'), 'write_file', 'write', [at('a', 'a')]).sessionScope).toBeUndefined();
  });

  it('a session grant lifts the mode\'s ask, but never an ask rule, a protected path, a deny rule or read-only mode', () => {
    const grants = new SessionGrants();
    const paths = [at('src/a.ts', 'src/a.ts')];
    grants.add(sessionScopeFor('write_file', 'write', paths, 'unused', '/ws'));
    expect(decide(policy('ask', [], DEFAULT_PROTECTED_PATHS, grants), 'write_file', 'write', [at('src/b.ts', 'src/b.ts')])).toMatchObject({ decision: 'allow' });
    expect(decide(policy('ask', [{ ask: 'write_file', path: 'src/**' }], DEFAULT_PROTECTED_PATHS, grants), 'write_file', 'write', paths).decision).toBe('ask');
    expect(decide(policy('ask', [{ deny: 'write_file', path: 'src/**' }], DEFAULT_PROTECTED_PATHS, grants), 'write_file', 'write', paths).decision).toBe('deny');
    expect(decide(policy('read-only', [], DEFAULT_PROTECTED_PATHS, grants), 'write_file', 'write', paths).decision).toBe('deny');
    expect(decide(policy('ask', [], DEFAULT_PROTECTED_PATHS, grants), 'write_file', 'write', [at('src/.git/config', 'src/.git/config')]).decision).toBe('ask');
  });

  it("protects core's one list, the paths tools-fs and tools-shell protect too, at the depths it says", () => {
    expect(DEFAULT_PROTECTED_PATHS).toEqual(protectedPathGlobs(PROTECTED_PATHS));
    for (const path of ['.git', 'sub/.weir/settings.json', 'web/package.json', '.github/workflows/ci.yml', 'team.code-workspace', '.devcontainer/Dockerfile']) {
      expect(decide(policy('auto'), 'write_file', 'write', [at(path, path)]).decision, path).toBe('ask');
    }
    expect(decide(policy('auto'), 'write_file', 'write', [at('docs/.github/workflows/ci.yml', 'docs/.github/workflows/ci.yml')]).decision).toBe('allow');
  });

  it('protectedPaths: [] turns the protection off', () => {
    expect(decide(policy('auto', [], []), 'write_file', 'write', [at('.git/config', '.git/config')]).decision).toBe('allow');
  });
});
