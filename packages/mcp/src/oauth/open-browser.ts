import { spawn } from 'node:child_process';

/** The command that opens a URL in the person's browser on this platform (`BROWSER` first, as many CLIs do). */
function opener(env: NodeJS.ProcessEnv): { command: string; args: string[] } | undefined {
  const browser = env.BROWSER?.trim();
  if (browser) return { command: browser, args: [] };
  if (process.platform === 'darwin') return { command: 'open', args: [] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { command: 'xdg-open', args: [] };
  return undefined;
}

/**
 * The default way to send a person to log in: the URL printed to stderr (always, so a terminal
 * without a browser, over ssh, still works), and, when stderr is a terminal, the browser opened
 * with it. A browser that fails to start is not an error: the printed URL is there.
 */
export function openOrPrint(name: string): (url: URL) => void {
  return (url) => {
    process.stderr.write(`weir: the MCP server "${name}" asks you to log in. Open this address in your browser:\n  ${url.href}\n`);
    const open = process.stderr.isTTY ? opener(process.env) : undefined;
    if (open === undefined) return;
    try {
      const child = spawn(open.command, [...open.args, url.href], { stdio: 'ignore', detached: true });
      child.on('error', () => undefined);
      child.unref();
    } catch {
      // The URL is printed above.
    }
  };
}
