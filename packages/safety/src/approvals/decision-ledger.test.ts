import { describe, expect, it } from 'vitest';
import { DecisionLedger } from './decision-ledger.js';
import type { PolicyEvaluation } from '../rules/evaluate-policy.js';

const ask: PolicyEvaluation = { decision: 'ask', reason: 'r', sessionScope: undefined, paths: [], subject: { toolName: 'write_file', tier: 'write', action: undefined, server: undefined, arguments: {} } };

describe('DecisionLedger', () => {
  it('binds a decision to the call id, the tool and the arguments hash together', () => {
    const ledger = new DecisionLedger();
    ledger.set({ callId: 'c1', toolName: 'write_file', argumentsHash: 'h1' }, ask);
    expect(ledger.get({ callId: 'c1', toolName: 'write_file', argumentsHash: 'h1' })).toBe(ask);
    expect(ledger.get({ callId: 'c2', toolName: 'write_file', argumentsHash: 'h1' })).toBeUndefined();
    expect(ledger.get({ callId: 'c1', toolName: 'edit_file', argumentsHash: 'h1' })).toBeUndefined();
    expect(ledger.get({ callId: 'c1', toolName: 'write_file', argumentsHash: 'h2' })).toBeUndefined();
  });

  it('forgets a call once its result is final', () => {
    const ledger = new DecisionLedger();
    ledger.set({ callId: 'c1', toolName: 'a', argumentsHash: 'h' }, ask);
    ledger.set({ callId: 'c2', toolName: 'a', argumentsHash: 'h' }, ask);
    ledger.forgetCall('c1');
    expect(ledger.size).toBe(1);
    expect(ledger.get({ callId: 'c2', toolName: 'a', argumentsHash: 'h' })).toBe(ask);
  });

  it('drops the oldest call beyond its capacity', () => {
    const ledger = new DecisionLedger(2);
    for (const id of ['c1', 'c2', 'c3']) ledger.set({ callId: id, toolName: 'a', argumentsHash: 'h' }, ask);
    expect(ledger.size).toBe(2);
    expect(ledger.get({ callId: 'c1', toolName: 'a', argumentsHash: 'h' })).toBeUndefined();
  });
});
