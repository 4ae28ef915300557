import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** How a prompt ended: a line, Ctrl-C, or the end of input (Ctrl-D, a closed pipe). */
export type ReadResult = { readonly kind: 'line'; readonly line: string } | { readonly kind: 'interrupt' } | { readonly kind: 'end' };

/** Reads one line at a time, each with its own readline interface. */
export interface LineReader {
  read(prompt: string): Promise<ReadResult>;
  /** Prints `line` above the prompt being shown (or just prints it when none is). */
  print(line: string): void;
}

/**
 * A line reader that holds the terminal only while it shows a prompt: between prompts standard
 * input is left alone (not raw), so Ctrl-C during a turn is a plain SIGINT to the process and the
 * approval prompt can take the keys. Lines typed earlier are kept as history (arrow up).
 */
export function lineReader(input: Readable & { isTTY?: boolean }, output: Writable & { isTTY?: boolean }): LineReader {
  const history: string[] = [];
  let active: Interface | undefined;
  const buffered: string[] = [];
  let ended = false;
  // Without a terminal the lines come from a pipe: one reader for all of it, lines queued.
  const piped = input.isTTY !== true;
  let pipe: Interface | undefined;
  let waiting: ((result: ReadResult) => void) | undefined;
  if (piped) {
    pipe = createInterface({ input, terminal: false });
    pipe.on('line', (line) => {
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ kind: 'line', line });
      } else buffered.push(line);
    });
    pipe.on('close', () => {
      ended = true;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ kind: 'end' });
      }
    });
  }
  return {
    read(prompt) {
      if (piped) {
        output.write(prompt);
        const next = buffered.shift();
        if (next !== undefined) return Promise.resolve({ kind: 'line', line: next });
        if (ended) return Promise.resolve({ kind: 'end' });
        return new Promise((resolve) => (waiting = resolve));
      }
      return new Promise((resolve) => {
        const rl = createInterface({ input, output, terminal: true, history: [...history], historySize: 200, removeHistoryDuplicates: true });
        active = rl;
        let settled = false;
        const finish = (result: ReadResult) => {
          if (settled) return;
          settled = true;
          active = undefined;
          rl.close();
          resolve(result);
        };
        rl.on('SIGINT', () => {
          output.write('\n');
          finish({ kind: 'interrupt' });
        });
        rl.on('close', () => finish({ kind: 'end' }));
        rl.question(prompt, (line) => {
          if (line.trim() !== '' && history[0] !== line) history.unshift(line);
          finish({ kind: 'line', line });
        });
      });
    },
    print(line) {
      if (active === undefined) {
        output.write(`${line}\n`);
        return;
      }
      output.write(`\r\u001b[K${line}\n`);
      active.prompt(true);
    },
  };
}
