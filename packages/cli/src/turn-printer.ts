import type { AgentEvent, ModelToolCall, ToolProgress, ToolResult } from '@weir/core';
import { markdownLines, type MarkdownLines } from './markdown-lines.js';
import type { TerminalStyle } from './terminal-style.js';

/** Where a turn is shown: the answer on one stream, the status lines on another (or the same). */
export interface PrintTargets {
  /** The answer. */
  readonly answer: (text: string) => void;
  /** Status: one tool line per call, progress, waits. Each call is one line (no newline given). */
  readonly status: (line: string) => void;
  /** Replaces the last `up` status lines by `line` (a terminal only). */
  readonly redraw?: (up: number, line: string) => void;
  /** The status lines' style; its `live` allows redrawing lines in place. */
  readonly style: TerminalStyle;
  /** The answer's style (default `style`); markdown is rendered when it is `live`. */
  readonly answerStyle?: TerminalStyle;
}

/** Shows a turn's events as they happen. */
export interface TurnPrinter {
  readonly onEvent: (event: AgentEvent) => void;
  /** Ends the answer's last line; call when the turn settles, however it ended. */
  readonly finish: () => void;
  /** Something else (an approval prompt) is about to draw: no line is redrawn in place after it. */
  readonly detach: () => void;
}

const ARGUMENT_CHARS = 80;

/**
 * Prints a turn: the answer streamed as it arrives (markdown rendered on a terminal), then one line
 * per tool call with its outcome and duration, `[tool] read_file {"path":"notes.txt"} -> ok (3 ms)`;
 * while a call runs on a terminal its line shows "running" and its latest progress under it,
 * redrawn in place; elsewhere each progress report is a line of its own (`  ↳ ...`).
 */
export function turnPrinter(targets: PrintTargets, escape: (text: string) => string): TurnPrinter {
  const { style } = targets;
  const answerStyle = targets.answerStyle ?? style;
  // On a terminal the answer's control characters are escaped as tool lines are; into a pipe it is the text as sent.
  const newMarkdown = () => markdownLines(answerStyle, answerStyle.live, escape);
  let markdown: MarkdownLines = newMarkdown();
  let answerOpen = false;
  let streamed = new Set<number>();
  const running = new Map<string, { call: ModelToolCall; progress?: string }>();

  // The call whose live lines are the last thing on the terminal, if any, and how many lines it has.
  let liveCall: string | undefined;
  let liveLines = 0;

  const closeAnswer = () => {
    if (!answerOpen) return;
    const rest = markdown.end();
    targets.answer(`${rest}\n`);
    answerOpen = false;
    markdown = newMarkdown();
  };
  const toolLine = (call: ModelToolCall, tail: string) => `${style.dim('[tool]')} ${style.bold(call.name)} ${describeArguments(call.arguments, escape)} ${tail}`;
  const endLive = () => {
    liveCall = undefined;
    liveLines = 0;
  };

  return {
    onEvent: (event) => {
      switch (event.type) {
        case 'text-delta': {
          streamed.add(event.step);
          const text = markdown.push(event.text);
          if (text !== '') targets.answer(text);
          answerOpen = true;
          endLive();
          break;
        }
        case 'model-call-end': {
          if (!streamed.has(event.step) && event.response.text !== '') {
            const text = markdown.push(event.response.text);
            if (text !== '') targets.answer(text);
            answerOpen = true;
          }
          closeAnswer();
          break;
        }
        case 'tool-start': {
          closeAnswer();
          running.set(event.call.id, { call: event.call });
          if (style.live && targets.redraw !== undefined) {
            // Only a call alone in its batch is drawn live: several at once would interleave.
            if (running.size === 1) {
              targets.status(toolLine(event.call, style.dim('running...')));
              liveCall = event.call.id;
              liveLines = 1;
            } else if (liveCall !== undefined) {
              endLive();
            }
          }
          break;
        }
        case 'tool-progress': {
          const entry = running.get(event.callId);
          if (entry === undefined) break;
          const text = `  ↳ ${describeProgress(event.update, escape)}`;
          if (style.live && targets.redraw !== undefined) {
            if (liveCall === event.callId && liveLines === 2) targets.redraw(1, style.dim(text));
            else if (liveCall === event.callId) {
              targets.status(style.dim(text));
              liveLines = 2;
            }
            entry.progress = text;
          } else {
            targets.status(`${text} (${event.toolName})`);
          }
          break;
        }
        case 'tool-result': {
          running.delete(event.call.id);
          const line = toolLine(event.call, outcome(event.result, style, escape));
          if (style.live && targets.redraw !== undefined && liveCall === event.call.id) {
            // Replace the running line (and its progress line) by the outcome.
            targets.redraw(liveLines, line);
            endLive();
          } else {
            targets.status(line);
          }
          break;
        }
        case 'compaction':
          closeAnswer();
          targets.status(style.dim(`[compact] the conversation passed the compaction limit: ${event.replaced} earlier messages became a summary`));
          break;
        case 'turn-end':
          closeAnswer();
          break;
        default:
          break;
      }
    },
    detach: () => endLive(),
    finish: () => {
      closeAnswer();
      streamed = new Set();
      running.clear();
      endLive();
    },
  };
}

function describeArguments(value: unknown, escape: (text: string) => string): string {
  let shown = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  if (typeof value === 'string') {
    try {
      shown = JSON.stringify(JSON.parse(value));
    } catch {
      // Shown as the model sent it: the pipeline will say why it does not parse.
    }
  }
  shown = escape(shown);
  return shown.length <= ARGUMENT_CHARS ? shown : `${shown.slice(0, ARGUMENT_CHARS - 1)}…`;
}

function describeProgress(update: ToolProgress, escape: (text: string) => string): string {
  const count = update.progress === undefined ? '' : update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`;
  return escape([count, update.message ?? ''].filter((part) => part !== '').join(' ') || 'working');
}

function outcome(result: ToolResult, style: TerminalStyle, escape: (text: string) => string): string {
  const took = style.dim(`(${duration(result.durationMs)})`);
  if (result.ok) return `-> ${style.ok('ok')} ${took}`;
  const message = escape(result.error.message.replace(/\s*\n\s*/g, ' '));
  return `-> ${style.bad(result.error.code)} ${message} ${took}`;
}

/** A duration as people read it: "3 ms", "1.2 s", "2 min 5 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
