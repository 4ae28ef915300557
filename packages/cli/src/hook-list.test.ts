import { describe, expect, it } from 'vitest';
import { commandHooks, hookLabel } from '@weir/hooks';
import { hookListLines } from './hook-list.js';

describe('/hooks', () => {
  it('lists every hook, where it came from and whether it runs', () => {
    const { hooks } = commandHooks({
      projectDir: '/work/project',
      layers: [
        { name: 'user', file: '/home/me/.weir/settings.json', trusted: true, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }] } },
        { name: 'claude-project', file: '/work/project/.claude/settings.json', trusted: false, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }] } },
      ],
    });
    expect(hookListLines(hooks, hookLabel)).toEqual([
      '  PreToolUse [Bash] guard.sh\n      from /home/me/.weir/settings.json (user): runs (timeout 5 s)',
      '  Stop npm test\n      from /work/project/.claude/settings.json (claude-project): not run: /work/project/.claude/settings.json is in a project folder you have not trusted',
    ]);
    expect(hookListLines([], hookLabel)[0]).toMatch(/^ {2}no hooks/);
  });
});
