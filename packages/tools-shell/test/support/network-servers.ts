import { execFileSync } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';

/** An HTTP server on loopback that counts the TCP connections it accepted. */
export interface CountingServer {
  readonly port: number;
  connections: number;
  readonly close: () => Promise<void>;
}

/** The body `/big` serves: deterministic bytes of the asked size. */
export function bigBody(bytes: number): Buffer {
  const body = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 1) body[i] = (i * 31 + 7) & 0xff;
  return body;
}

/**
 * Starts an HTTP server on `host` (a loopback address): `/hello` answers `hello from NAME`,
 * `/big?bytes=N` N bytes, and `/repo.git/...` the files of a dumb-HTTP git repository when given.
 */
export async function countingServer(name: string, host = '127.0.0.1', repository?: string): Promise<CountingServer> {
  const big = new Map<number, Buffer>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') return void res.end(`hello from ${name}\n`);
    if (url.pathname === '/big') {
      const bytes = Number(url.searchParams.get('bytes') ?? '1024');
      if (!big.has(bytes)) big.set(bytes, bigBody(bytes));
      res.writeHead(200, { 'content-length': bytes, 'content-type': 'application/octet-stream' });
      return void res.end(big.get(bytes));
    }
    if (repository !== undefined && url.pathname.startsWith('/repo.git/')) {
      const path = join(repository, normalize(url.pathname.slice('/repo.git/'.length)));
      try {
        if (path.startsWith(repository) && statSync(path).isFile()) return void res.end(readFileSync(path));
      } catch {
        // Falls through to 404, as a static server answers git's probes of files that are not there.
      }
    }
    res.writeHead(404).end('not found\n');
  });
  const counting = { port: 0, connections: 0, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
  server.on('connection', () => { counting.connections += 1; });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  counting.port = (server.address() as AddressInfo).port;
  return counting;
}

/** A UDP "resolver" on 127.0.0.1 that counts the datagrams it got (and never answers). */
export async function countingResolver(): Promise<{ readonly port: number; datagrams: number; readonly close: () => Promise<void> }> {
  const socket: UdpSocket = createSocket('udp4');
  const resolver = { port: 0, datagrams: 0, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
  socket.on('message', () => { resolver.datagrams += 1; });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  resolver.port = socket.address().port;
  return resolver;
}

/** A bare git repository with one commit, ready to be served as dumb HTTP (`update-server-info`). */
export function dumbGitRepository(): { readonly path: string; readonly remove: () => void } {
  const work = mkdtempSync(join(tmpdir(), 'weir-net-git-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  git('init', '-q', '-b', 'main', 'src');
  writeFileSync(join(work, 'src', 'README'), 'served over dumb http\n');
  execFileSync('git', ['-C', join(work, 'src'), 'add', 'README']);
  execFileSync('git', ['-C', join(work, 'src'), '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one']);
  git('clone', '-q', '--bare', 'src', 'repo.git');
  execFileSync('git', ['-C', join(work, 'repo.git'), 'update-server-info']);
  chmodSync(work, 0o755);
  return { path: join(work, 'repo.git'), remove: () => rmSync(work, { recursive: true, force: true }) };
}
