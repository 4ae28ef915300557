import { createServer, type Server } from 'node:http';

/** The loopback address a browser comes back to with the authorization code. */
export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly url: string;
  /** Resolves with the code of the first return whose `state` is `expected`; rejects when the server answered an error, or after `timeoutMs`. */
  code(expected: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>weir</title><p>${text}</p>\n`;

/**
 * Listens on 127.0.0.1 (never another interface) at `port` (0: a free one; a taken port falls
 * back to a free one, and the registration is made again with it). A return with the wrong
 * `state` is refused and waited past: another page cannot finish the login.
 */
export async function listenForRedirect(port: number | undefined): Promise<RedirectListener> {
  let waiting: { expected: string; resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/html' }).end(PAGE('Not found.'));
      return;
    }
    const state = url.searchParams.get('state');
    if (waiting === undefined || state !== waiting.expected) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('This login is not the one weir is waiting for (its state does not match).'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const wait = waiting;
    waiting = undefined;
    if (error !== null || code === null) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('The login failed; see the terminal.'));
      wait.reject(new Error(`the authorization server answered ${error ?? 'no code'}${url.searchParams.has('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('Logged in. You can close this tab and go back to weir.'));
    wait.resolve(code);
  });
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(port ?? 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !port) throw error;
    await listen(0);
  }
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${bound}/callback`,
    code: (expected, timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`no login came back within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        waiting = {
          expected,
          resolve: (code) => {
            clearTimeout(timer);
            resolve(code);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        // A login still waited for ends now, not at its timeout: its timer would keep the process up.
        waiting?.reject(new Error('the login was abandoned: the connection to the server was closed'));
        waiting = undefined;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
