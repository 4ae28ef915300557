// A real terminal for a test: weir in a tmux pane of its own tmux server (-L, a socket name unique
// to the test), driven with send-keys and read with capture-pane, polled with a bounded wait. The
// server is always killed by `close()`, and the pane prints "WEIR EXITED <status>" when weir ends.
import { execFileSync, spawnSync } from 'node:child_process';
import { weirCommand } from './run-weir.js';

const tmuxCheck = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
/** Why terminal tests cannot run here, or undefined when tmux is installed. */
export const tmuxMissing = tmuxCheck.error !== undefined || tmuxCheck.status !== 0 ? `tmux is not available (apt-get install -y tmux)` : undefined;

let count = 0;

export interface Terminal {
  /** The whole screen and scroll-back, lines joined. */
  screen(): string;
  /** Waits until the screen matches (at most `ms`); resolves to the screen. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** Sends keys (tmux names: Enter, Up, C-c), each followed by a short pause. */
  press(...keys: string[]): Promise<void>;
  /** Sends keys in one send-keys, with no pause between them. */
  pressAtOnce(...keys: string[]): Promise<void>;
  /** Types text literally and presses Enter. */
  type(text: string): Promise<void>;
  close(): void;
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Starts `weir <args>` in a 120x40 terminal, in `cwd`, with exactly `env`; `command` replaces the
 * whole command line (the README's `npx -y pnpm@10 weir ...`).
 */
export function startTerminal(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, command?: readonly string[]): Terminal {
  count += 1;
  const socket = `weir-cli-test-${process.pid}-${count}`;
  const tmux = (...tmuxArgs: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...tmuxArgs], { encoding: 'utf8', env: { ...env, TERM: 'xterm-256color' } });
  const line = (command ?? [...weirCommand, ...args]).map(quote).join(' ');
  tmux('new-session', '-d', '-s', 'weir', '-x', '120', '-y', '40', '-c', cwd, `${line}; echo "WEIR EXITED $?"; sleep 120`);
  const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'weir', '-S', '-500');
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    screen,
    async waitFor(pattern, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${pattern}; the terminal shows:\n${text}`);
        await pause(100);
      }
    },
    async press(...keys) {
      for (const key of keys) {
        tmux('send-keys', '-t', 'weir', key);
        await pause(200);
      }
    },
    async pressAtOnce(...keys) {
      tmux('send-keys', '-t', 'weir', ...keys);
      await pause(200);
    },
    async type(text) {
      tmux('send-keys', '-t', 'weir', '-l', text);
      await pause(200);
      tmux('send-keys', '-t', 'weir', 'Enter');
      await pause(200);
    },
    close() {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    },
  };
}
