import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, isHarnessError, type Harness } from '@weir/core';
import { safety, type ApproverRequest, type SafetyOptions } from '@weir/safety';
import { testTools, type BodyLog } from './support/tools.js';

// The `network` key: per host, allow or ask for the hosts a shell call asks to reach (tools-shell's
// `network` argument under `perCallHosts`); the sandbox's proxy then lets exactly those through.

let harness: Harness;
let ran: BodyLog;
let asked: ApproverRequest[];

afterEach(async () => {
  await harness?.close();
});

async function setup(rules: SafetyOptions['rules'], answer: 'allow' | 'deny' = 'deny') {
  ran = [];
  asked = [];
  harness = createHarness();
  await harness.use(testTools(ran));
  await harness.use(safety({ rules, approver: (request) => (asked.push(request), { decision: answer }) }));
}

let nextId = 0;
const run = (command: string, network?: unknown) =>
  harness.executeToolCall({ id: `net_${(nextId += 1)}`, name: 'run_command', arguments: (network === undefined ? { command } : { command, network }) as Record<string, unknown> });

const RULES: SafetyOptions['rules'] = [
  { allow: { tool: 'run_command', command: 'npm install *', network: ['registry.npmjs.org', '*.npmjs.com'] } },
  { ask: { tool: 'run_command', network: 'github.com' } },
  { deny: { tool: 'run_command', network: '*.evil.test' } },
];

describe('network rules', () => {
  it('allows a call whose every host matches the rule (normalised: case, trailing dot), without asking', async () => {
    await setup(RULES);
    expect((await run('npm install left-pad', ['Registry.NPMJS.org.', 'cdn.npmjs.com'])).ok).toBe(true);
    expect(asked).toEqual([]);
    expect(ran).toEqual(['run_command npm install left-pad']);
  });

  it('asks when one host is outside the allow rule, or when an ask rule names a host', async () => {
    await setup(RULES, 'deny');
    expect((await run('npm install x', ['registry.npmjs.org', 'npmjs.com'])).ok).toBe(false);
    expect((await run('npm install x', ['github.com'])).ok).toBe(false);
    expect(asked).toHaveLength(2);
    expect(asked[1]!.reason).toContain('network');
    expect(ran).toEqual([]);
  });

  it('denies a denied host in every case, and fails closed on a network argument it cannot read', async () => {
    await setup(RULES, 'allow');
    const denied = await run('npm install x', ['registry.npmjs.org', 'a.EVIL.test']);
    expect(denied.ok).toBe(false);
    if (!denied.ok) expect(denied.error.code).toBe('DENIED');
    expect(asked).toEqual([]);
  });

  it('never matches a call that names no host: a network rule does not widen other commands', async () => {
    await setup([{ allow: { tool: 'run_command', network: '*' } }], 'deny');
    expect((await run('rm -rf src')).ok).toBe(false);
    expect(asked).toHaveLength(1);
    expect(ran).toEqual([]);
  });

  it('refuses a rule whose network value is not hosts, naming it', async () => {
    let error: unknown;
    try {
      safety({ rules: [{ allow: { tool: 'run_command', network: ['a.*.b'] } }] });
    } catch (caught) {
      error = caught;
    }
    expect(isHarnessError(error) && error.code === 'INVALID_PLUGIN').toBe(true);
    expect((error as Error).message).toBe('safety(): rules[0].allow.network: "a.*.b" is not a host name, *.name or *');
  });
});
