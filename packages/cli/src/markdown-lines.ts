import type { TerminalStyle } from './terminal-style.js';

/** Renders streamed markdown for a terminal, one complete line at a time. */
export interface MarkdownLines {
  /** Takes the next piece of text; returns what can be printed now (whole lines, rendered). */
  push(text: string): string;
  /** The rest (an unfinished last line), rendered. */
  end(): string;
}

/**
 * Markdown for the terminal, as the answer streams in: headings bold, `**strong**` bold, `` `code` ``
 * and fenced blocks in the code colour (fence lines hidden), list bullets as "•", quotes dim.
 * Without colour (a pipe, `NO_COLOR`) the text passes through as it came, delta by delta: what a
 * program reads is the model's markdown itself.
 *
 * When rendering (a terminal), each line goes through `escape` before it is styled, tabs kept: an
 * answer quoting a file's escape sequences (OSC 52 writes the clipboard, OSC 0 the title, CSI 2J
 * clears the screen, a bare `\r` overwrites the line) shows them as text and does not run them.
 */
export function markdownLines(style: TerminalStyle, render: boolean, escape: (text: string) => string = (text) => text): MarkdownLines {
  let pending = '';
  let inFence = false;
  const line = (raw: string): string => {
    const text = raw.includes('\t') ? raw.split('\t').map(escape).join('\t') : escape(raw);
    if (/^\s*(```|~~~)/.test(text)) {
      inFence = !inFence;
      return '';
    }
    if (inFence) return `${style.code(`  ${text}`)}\n`;
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading) return `${heading[1]!.length === 1 ? style.heading(inline(heading[2]!, style)) : style.bold(inline(heading[2]!, style))}\n`;
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(text);
    if (bullet) return `${bullet[1]}• ${inline(bullet[2]!, style)}\n`;
    const quote = /^>\s?(.*)$/.exec(text);
    if (quote) return `${style.dim(`│ ${inline(quote[1]!, style)}`)}\n`;
    return `${inline(text, style)}\n`;
  };
  return {
    push(text) {
      if (!render) return text;
      pending += text;
      let out = '';
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
        out += line(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
      return out;
    },
    end() {
      if (!render) return '';
      const rest = pending;
      pending = '';
      inFence = false;
      return rest === '' ? '' : line(rest).replace(/\n$/, '');
    },
  };
}

function inline(text: string, style: TerminalStyle): string {
  return text.replace(/`([^`]+)`/g, (_m, code: string) => style.code(code)).replace(/\*\*([^*]+)\*\*/g, (_m, strong: string) => style.bold(strong));
}
