import { describe, expect, it } from 'vitest';
import { ApprovalLedger } from './protected-path-guard.js';

describe('ApprovalLedger', () => {
  it('accepts exactly the path recorded for the call, once', () => {
    const ledger = new ApprovalLedger();
    ledger.record('c1', '.git/config');
    expect(ledger.consume('c1', '.git/hooks/pre-commit')).toBe(false);
    ledger.record('c1', '.git/config');
    expect(ledger.consume('c1', '.git/config')).toBe(true);
    expect(ledger.consume('c1', '.git/config')).toBe(false);
    expect(ledger.consume('never-asked', '.git/config')).toBe(false);
  });

  it('forgets a call, and drops the oldest entries past its bound', () => {
    const ledger = new ApprovalLedger();
    ledger.record('c1', 'a');
    ledger.forget('c1');
    expect(ledger.consume('c1', 'a')).toBe(false);
    for (let index = 0; index <= 1024; index += 1) ledger.record(`call-${index}`, 'p');
    expect(ledger.consume('call-0', 'p')).toBe(false);
    expect(ledger.consume('call-1024', 'p')).toBe(true);
  });
});
