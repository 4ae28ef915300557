import { describe, expect, it } from 'vitest';
import { markdownLines } from './markdown-lines.js';
import { terminalStyle } from './terminal-style.js';

const tty = terminalStyle({ isTTY: true }, { TERM: 'xterm' });
const strip = (text: string) => text.replace(/\u001b\[[\d;]*m/g, '');

describe('markdownLines', () => {
  it('renders whole lines as they complete, whatever the deltas', () => {
    const lines = markdownLines(tty, true);
    const pieces = ['# Ti', 'tle\n- one **bo', 'ld**\n', '```\ncode line\n```\n> quoted `x`\nplain'];
    const out = pieces.map((piece) => lines.push(piece)).join('') + lines.end();
    expect(strip(out)).toBe('Title\n• one bold\n  code line\n│ quoted x\nplain');
    expect(out).toContain('\u001b[1m');
    // Nothing of an unfinished line is printed before its end.
    expect(markdownLines(tty, true).push('half a line')).toBe('');
  });

  it('passes the text through as it came when not rendering (a pipe, NO_COLOR)', () => {
    const lines = markdownLines(terminalStyle({ isTTY: false }), false);
    expect(lines.push('**a**\n- b')).toBe('**a**\n- b');
    expect(lines.end()).toBe('');
  });

  it('uses no colour with NO_COLOR, even on a terminal', () => {
    const style = terminalStyle({ isTTY: true }, { NO_COLOR: '1', TERM: 'xterm' });
    const lines = markdownLines(style, style.live);
    expect(lines.push('## Head\n')).toBe('Head\n');
  });
});
