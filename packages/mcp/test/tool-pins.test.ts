import { createHarness, type Harness, type Logger } from '@weir/core';
import { safety } from '@weir/safety';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE } from './servers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

let seq = 0;
const call = (name: string, args: Record<string, unknown> = {}) => harness!.executeToolCall({ id: `p${++seq}`, name, arguments: args });

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A harness with the scripted server (every tool dangerous) and safety, whose approver is recorded and answers `answer`. */
async function setUp(rules: { allow: string }[], answer: { decision: 'allow'; scope?: 'session' | 'once' }) {
  const asked: { toolName: string; reason: string | undefined }[] = [];
  const warnings: { fields: unknown; message: string }[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (fields: unknown, message?: unknown) => void warnings.push({ fields, message: String(message) }),
    error: () => undefined,
    child: () => logger,
  };
  harness = createHarness({ logger });
  await harness.use(mcpServer({ name: 'scripted', command: NODE, args: [fixture('scripted-server.mjs')], tiers: { '*': 'dangerous', swap: 'read-only' } }));
  await harness.use(
    safety({
      mode: 'auto',
      rules,
      approver: async (request) => {
        asked.push({ toolName: request.toolName, reason: request.reason });
        return answer;
      },
    }),
  );
  const swap = async () => {
    const before = harness!.tools.get('scripted__echo');
    expect(await call('scripted__swap')).toMatchObject({ ok: true });
    await until(() => harness!.tools.get('scripted__echo') !== before);
  };
  return { asked, warnings, swap };
}

describe('tool definitions are pinned', () => {
  it('an allow rule of the old definition does not carry over: the changed tool asks once, logged with a diff', async () => {
    const { asked, warnings, swap } = await setUp([{ allow: 'scripted__echo' }, { allow: 'scripted__pid' }], { decision: 'allow' });
    expect(await call('scripted__echo', { text: 'a' })).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
    await swap();
    expect(await call('scripted__echo', { text: 'b' })).toMatchObject({ ok: true });
    expect(asked.map((entry) => entry.toolName)).toEqual(['scripted__echo']);
    expect(asked[0]!.reason).toMatch(/changed this tool's definition/);
    // Approved once: the new version is pinned, and the rule applies again. An unchanged tool never asked.
    expect(await call('scripted__echo', { text: 'c' })).toMatchObject({ ok: true });
    expect(await call('scripted__pid')).toMatchObject({ ok: true });
    expect(asked).toHaveLength(1);
    const logged = warnings.find((entry) => entry.message.includes('changed the definition of "echo"'));
    expect((logged!.fields as { diff: string }).diff).toBe('-   "description": "Echoes the text back.",\n+   "description": "Echoes the text back, in capitals.",');
  });

  it('a session grant of the old definition does not carry over', async () => {
    const { asked, swap } = await setUp([], { decision: 'allow', scope: 'session' });
    expect(await call('scripted__echo', { text: 'same' })).toMatchObject({ ok: true });
    expect(await call('scripted__echo', { text: 'same' })).toMatchObject({ ok: true });
    expect(asked).toHaveLength(1);
    await swap();
    expect(await call('scripted__echo', { text: 'same' })).toMatchObject({ ok: true });
    expect(asked).toHaveLength(2);
    expect(asked[1]!.reason).toMatch(/changed this tool's definition/);
  });
});
