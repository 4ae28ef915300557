import { PROTECTED_PATHS } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { SHELL_DEFAULTS } from './shell-options.js';

describe('SHELL_DEFAULTS.protect', () => {
  it("binds core's one protected-path list read-only, less what commands write and the patterns", () => {
    const bound = PROTECTED_PATHS.filter((entry) => entry.commandsWrite !== true && !entry.path.includes('*')).map((entry) => entry.path);
    expect(SHELL_DEFAULTS.protect).toEqual(bound);
    expect(SHELL_DEFAULTS.protect).toEqual(expect.arrayContaining(['.git', '.weir', '.npmrc', '.github/workflows', '.devcontainer', '.pre-commit-config.yaml']));
    // `npm install x` must be able to edit package.json; the write tools and the safety rules still ask.
    expect(SHELL_DEFAULTS.protect).not.toContain('package.json');
    expect(PROTECTED_PATHS.find((entry) => entry.path === 'package.json')?.commandsWrite).toBe(true);
  });
});
