import { PROTECTED_PATHS } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, ProtectedPaths } from './protected-paths.js';

describe('DEFAULT_PROTECTED_PATHS', () => {
  it("is core's one list, every entry", () => {
    expect(DEFAULT_PROTECTED_PATHS).toEqual(PROTECTED_PATHS.map((entry) => entry.path));
  });
});

describe('ProtectedPaths', () => {
  const rules = new ProtectedPaths([...DEFAULT_PROTECTED_PATHS, 'secrets', './config/prod/']);

  it.each([
    ['.git', '.git'],
    ['.git/hooks/pre-commit', '.git'],
    ['sub/.git/config', '.git'],
    ['.GIT/config', '.git'],
    ['.weir/settings.json', '.weir'],
    ['.vscode/tasks.json', '.vscode'],
    ['.idea/workspace.xml', '.idea'],
    ['.envrc', '.envrc'],
    ['deep/er/.envrc', '.envrc'],
    ['.husky/pre-commit', '.husky'],
    ['a/secrets/b', 'secrets'],
    ['config/prod', 'config/prod'],
    ['config/prod/db.json', 'config/prod'],
    ['CONFIG/Prod/x', 'config/prod'],
    // The entries tools-shell and safety already had, now one list in core (issue 28 item 6).
    ['package.json', 'package.json'],
    ['packages/a/package.json', 'package.json'],
    ['.npmrc', '.npmrc'],
    ['.github/workflows/ci.yml', '.github/workflows'],
    ['.devcontainer/devcontainer.json', '.devcontainer'],
    ['.pre-commit-config.yaml', '.pre-commit-config.yaml'],
    ['weir.code-workspace', '*.code-workspace'],
    ['sub/Team.CODE-WORKSPACE', '*.code-workspace'],
  ])('%s is protected by %s', (path, rule) => {
    expect(rules.ruleFor(path)).toBe(rule);
  });

  it.each([['src/a.ts'], ['.github/ISSUE_TEMPLATE/bug.md'], ['x/.github/workflows/ci.yml'], ['package.json.bak'], ['code-workspace'], ['git/config'], ['.gitignore'], ['.envrc.example'], ['x/config/prod/y'], ['config/production'], ['.']])(
    '%s is not protected',
    (path) => {
      expect(rules.ruleFor(path)).toBeUndefined();
    },
  );

  it('refuses rules that are not relative paths inside the root', () => {
    for (const rule of ['', '.', '/etc', '../x', 'a/../../b', 'a\u0000', 3]) {
      expect(() => new ProtectedPaths([rule as string]), String(rule)).toThrow(TypeError);
    }
  });
});
