import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, defineTool, isHarnessError, namespacedName } from '@weir/core';

const remoteTool = (name: string) =>
  defineTool({ name, description: `Remote ${name}.`, tier: 'read-only', parameters: { type: 'object', properties: {} }, execute: () => name });

describe('namespaced tool sets', () => {
  it('a plugin registers tools it did not name under a prefix, and they run under that name', async () => {
    const harness = createHarness();
    await harness.use(
      definePlugin({
        name: 'mcp-github',
        setup: (ctx) => {
          for (const name of ['create_issue', 'list.repos']) ctx.tools.register({ ...remoteTool(name), name: namespacedName('github', name) });
        },
      }),
    );
    expect(harness.tools.names()[0]).toBe('github__create_issue');
    expect(harness.tools.names()[1]).toMatch(/^github__list_repos_[0-9a-f]{8}$/);
    const result = await harness.executeToolCall({ id: 'c1', name: 'github__create_issue', arguments: {} });
    expect(result).toMatchObject({ ok: true, content: 'create_issue' });
  });

  it('a collision names both owners', async () => {
    const harness = createHarness();
    const bringing = (plugin: string) =>
      definePlugin({ name: plugin, setup: (ctx) => void ctx.tools.register({ ...remoteTool('search'), name: namespacedName('web', 'search') }) });
    await harness.use(bringing('first'));
    const error = await harness.use(bringing('second')).catch((caught: unknown) => caught);
    expect(isHarnessError(error)).toBe(true);
    const message = String((error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message);
    expect(message).toContain('"web__search" is already registered by plugin "first"; plugin "second" cannot');
    // The harness's own caller is named too.
    expect(() => harness.tools.register({ ...remoteTool('x'), name: 'web__search' })).toThrow(/by plugin "first"; the harness's caller cannot/);
  });
});
