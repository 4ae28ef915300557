import { describe, expect, it } from 'vitest';
import { PROTECTED_PATHS, protectedPathGlobs } from './protected-paths.js';

describe('PROTECTED_PATHS', () => {
  it('is one list of relative paths, each with a reason, no two alike', () => {
    const paths = PROTECTED_PATHS.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const entry of PROTECTED_PATHS) {
      expect(entry.path).not.toMatch(/^\/|\.\.|\/$/);
      expect(entry.why.length).toBeGreaterThan(10);
    }
    expect(paths).toEqual(expect.arrayContaining(['.git', '.weir', 'package.json', '.github/workflows', '*.code-workspace']));
    expect(Object.isFrozen(PROTECTED_PATHS) && PROTECTED_PATHS.every(Object.isFrozen)).toBe(true);
  });
});

describe('protectedPathGlobs', () => {
  it('makes a name match at any depth and a path from the root, each with everything below it', () => {
    expect(protectedPathGlobs([
      { path: '.git', why: 'hooks' },
      { path: '.github/workflows', why: 'CI' },
      { path: '*.code-workspace', why: 'tasks' },
    ])).toEqual(['**/.git', '**/.git/**', '.github/workflows', '.github/workflows/**', '**/*.code-workspace', '**/*.code-workspace/**']);
    expect(protectedPathGlobs()).toHaveLength(PROTECTED_PATHS.length * 2);
  });
});
