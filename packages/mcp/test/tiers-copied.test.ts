import { createHarness, type Harness } from '@weir/core';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { fixture, NODE } from './servers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
});

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('tiers are copied and checked when mcpServer() is called', () => {
  it('changing the caller\'s tier map later lowers no tier, at load or at a refresh', async () => {
    const tiers: Record<string, string> = { swap: 'read-only', '*': 'dangerous' };
    const plugin = mcpServer({ name: 'scripted', command: NODE, args: [fixture('scripted-server.mjs')], tiers: tiers as never });
    tiers['*'] = 'read-only';
    harness = createHarness();
    await harness.use(plugin);
    expect(harness.tools.get('scripted__echo')!.tier).toBe('dangerous');
    tiers.echo = 'read-only';
    tiers['*'] = 'bogus';
    const before = harness.tools.get('scripted__echo');
    expect(await harness.executeToolCall({ id: '1', name: 'scripted__swap', arguments: {} })).toMatchObject({ ok: true });
    await until(() => harness!.tools.get('scripted__echo') !== before);
    expect(harness.tools.get('scripted__echo')!.tier).toBe('dangerous');
    expect(harness.tools.get('scripted__added')!.tier).toBe('dangerous');
  });
});
