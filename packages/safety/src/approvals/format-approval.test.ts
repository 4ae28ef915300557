import { describe, expect, it } from 'vitest';
import { formatApproval } from './format-approval.js';

describe('formatApproval', () => {
  it('shows the tool, its tier, each argument as JSON, and the reason', () => {
    expect(formatApproval({ toolName: 'write_file', tier: 'write', arguments: { path: 'notes.md', content: 'a\nb' }, reason: 'mode asks' })).toEqual([
      'write_file (write tool) wants to run with:',
      '  path: "notes.md"',
      '  content: "a\\nb"',
      'Why: mode asks',
    ]);
  });

  it('escapes bidi overrides and controls in values, keys and the reason', () => {
    const lines = formatApproval({
      toolName: 'write_file',
      tier: 'write',
      arguments: { path: 'invoice\u202Etxt.exe', 'we\u200Bird': { nested: '\u001b[31m' } },
      reason: 'path "invoice\u202Etxt.exe" is protected',
    });
    expect(lines.join('\n')).not.toMatch(/[\u202E\u200B\u001b]/);
    expect(lines).toContain('  path: "invoice\\u202Etxt.exe"');
    expect(lines).toContain('  "we\\u200Bird": {"nested":"\\u001b[31m"}');
    expect(lines).toContain('Why: path "invoice\\u202Etxt.exe" is protected');
  });

  it('says when there are no arguments and omits an empty reason', () => {
    expect(formatApproval({ toolName: 'now', tier: 'dangerous', arguments: {}, reason: undefined })).toEqual(['now (dangerous tool) wants to run with:', '  (no arguments)']);
  });

  it('cuts a long value and says how much is not shown, without splitting a surrogate pair', () => {
    const [, line] = formatApproval({ toolName: 't', tier: 'write', arguments: { content: 'x'.repeat(50) }, reason: undefined }, 20);
    expect(line).toBe(`  content: "${'x'.repeat(19)} … (32 more characters not shown)`);
    const [, emoji] = formatApproval({ toolName: 't', tier: 'write', arguments: { c: '👍👍' } , reason: undefined }, 3);
    expect(emoji).toBe('  c: "👍 … (3 more characters not shown)');
  });
});
