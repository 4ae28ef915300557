import type { PermissionRule, SafetySettings, SettingsLayer } from '@weir/safety';
import { describe, expect, it } from 'vitest';
import { shellHiddenPaths } from './shell-hidden-paths.js';

const layer = (name: SettingsLayer['name'], rules: PermissionRule[]): SettingsLayer => ({ name, file: undefined, mode: undefined, rules, hooks: undefined, networkAllow: [] });
const settings = (user: PermissionRule[], project: PermissionRule[] = []): SafetySettings =>
  ({ managed: layer('managed', []), user: layer('user', user), project: layer('project', project), locked: false, projectTrusted: false, projectRoot: undefined, compat: { claude: false }, claude: [] }) as SafetySettings;

describe('shellHiddenPaths', () => {
  it('takes the paths denied for reading, from every layer, and nothing else', () => {
    const hidden = shellHiddenPaths(
      settings(
        [
          { deny: { action: 'read', path: '.env' } },
          { deny: 'read_file', path: ['secrets/**', '.env'] },
          { deny: { path: 'private.key' } },
          { deny: { action: ['edit', 'read'], path: 'vault/*' } },
          { deny: 'write_file', path: 'docs/**' },
          { deny: { action: 'edit', path: 'src/**' } },
          { allow: { action: 'read', path: 'public/**' } },
          { deny: { tier: 'dangerous' } },
        ],
        [{ deny: { tool: 'grep', path: 'tokens.json' } }],
      ),
    );
    expect(hidden).toEqual(['.env', 'secrets/**', 'private.key', 'vault/*', 'tokens.json']);
  });
});
