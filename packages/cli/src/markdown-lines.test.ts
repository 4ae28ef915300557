import { describe, expect, it } from 'vitest';
import { escapeForTerminal } from '@weir/safety';
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

describe('control characters in an answer', () => {
  // What a model may quote from a file: OSC 52 (sets the clipboard), OSC 0 (the title), CSI 2J
  // (clears the screen), a bare carriage return (overwrites the line), a bidi override.
  const hostile = 'see \u001b]52;c;ZXZpbA==\u0007 and \u001b]0;pwned\u0007\n**bold** \u001b[2J\tsafe\rEVIL \u202Etxt.exe\n';

  it('on a terminal are escaped before the markdown is rendered, tabs kept', () => {
    const lines = markdownLines(tty, true, escapeForTerminal);
    const out = lines.push(hostile) + lines.end();
    expect(strip(out)).toBe('see \\u001B]52;c;ZXZpbA==\\u0007 and \\u001B]0;pwned\\u0007\nbold \\u001B[2J\tsafe\\rEVIL \\u202Etxt.exe\n');
    // The only escape sequences left are the renderer's own colours.
    expect(out.replace(/\u001b\[[\d;]*m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
  });

  it('into a pipe are the text as sent', () => {
    const lines = markdownLines(terminalStyle({ isTTY: false }), false, escapeForTerminal);
    expect(lines.push(hostile) + lines.end()).toBe(hostile);
  });
});
