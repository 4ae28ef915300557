import { escapeForTerminal } from '@weir/safety';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@weir/core';
import { terminalStyle } from './terminal-style.js';
import { turnPrinter } from './turn-printer.js';

const answerOf = (isTTY: boolean, text: string) => {
  let answer = '';
  const style = terminalStyle({ isTTY }, { TERM: 'xterm' });
  const printer = turnPrinter({ answer: (part) => (answer += part), status: () => undefined, style }, escapeForTerminal);
  printer.onEvent({ type: 'text-delta', step: 1, text } as AgentEvent);
  printer.finish();
  return answer;
};

describe("the model's answer", () => {
  const quoted = 'the file says \u001b]52;c;ZXZpbA==\u0007 then \u001b[2J';

  it('on a terminal runs no escape sequence it quotes', () => {
    const shown = answerOf(true, quoted);
    expect(shown).not.toContain('\u001b]');
    expect(shown).not.toContain('\u001b[2J');
    expect(shown).toContain('\\u001B]52;c;ZXZpbA==\\u0007');
  });

  it('into a pipe is the text as sent', () => {
    expect(answerOf(false, quoted)).toBe(`${quoted}\n`);
  });
});
