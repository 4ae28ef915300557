import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '@weir/core';
import type { CommandResult } from '@weir/tools-shell';
import { shellFixture, type ShellFixture } from './support/shell-workspace.js';
import { countingResolver, countingServer, dumbGitRepository, type CountingServer } from './support/network-servers.js';

// The filtered network, end to end: real clients in a real sandbox, a real proxy, and test
// servers on loopback standing in for the internet. The proxy's resolution is pointed at them
// (the `lookup` option); the sandbox itself resolves nothing.

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** undici (present in the workspace's node_modules for the SDKs), bound read-only so a sandboxed `node` can use its proxy agent. */
function undiciDirectory(): string {
  const store = join(repoRoot, 'node_modules', '.pnpm');
  const entry = readdirSync(store).find((name) => /^undici@\d/.test(name));
  if (entry === undefined) throw new Error('undici is not in node_modules/.pnpm: the node fetch case needs it (pnpm install)');
  return realpathSync(join(store, entry, 'node_modules', 'undici'));
}

describe('the filtered network (network.allow)', { timeout: 60_000 }, () => {
  let shell: ShellFixture;
  let allowed: CountingServer;
  let denied: CountingServer;
  let otherPort: CountingServer;
  let internal: CountingServer;
  let resolver: Awaited<ReturnType<typeof countingResolver>>;
  let repository: ReturnType<typeof dumbGitRepository>;
  let undici: string;
  const lookups: string[] = [];
  const logs: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const log = (level: string) => (fields: unknown, message?: unknown) => void logs.push({ level, fields: fields as Record<string, unknown>, message: String(message) });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger };

  beforeAll(async () => {
    repository = dumbGitRepository();
    allowed = await countingServer('allowed', '127.0.0.1', repository.path);
    denied = await countingServer('denied');
    otherPort = await countingServer('other-port');
    // Loopback, but not the allowed address: stands in for a private address an allowed name resolves to.
    internal = await countingServer('internal', '127.0.0.2');
    resolver = await countingResolver();
    undici = undiciDirectory();
    const table: Record<string, string[]> = { 'allowed.test': ['127.0.0.1'], 'a.wild.test': ['127.0.0.1'], 'denied.test': ['127.0.0.1'], 'internal.test': ['127.0.0.2'], 'extra.test': ['127.0.0.1'] };
    shell = await shellFixture({
      network: {
        allow: ['allowed.test', '*.wild.test', 'internal.test'],
        ports: [allowed.port, internal.port],
        allowAddresses: ['127.0.0.1'],
        perCallHosts: true,
        lookup: async (host) => {
          lookups.push(host);
          const found = table[host];
          if (found === undefined) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
          return found;
        },
      },
      readable: [undici],
    }, logger);
  }, 60_000);

  afterAll(async () => {
    await shell?.close();
    for (const server of [allowed, denied, otherPort, internal, resolver]) await server?.close();
    repository?.remove();
  }, 60_000);

  const base = () => `http://allowed.test:${allowed.port}`;
  const counts = () => ({ denied: denied.connections, otherPort: otherPort.connections, internal: internal.connections, resolver: resolver.datagrams });
  const zero = { denied: 0, otherPort: 0, internal: 0, resolver: 0 };

  it('lets curl reach an allowed name, by plain HTTP and by a CONNECT tunnel, and lists it', async () => {
    const before = allowed.connections;
    const result = await shell.value(`curl -sS ${base()}/hello && curl -sS --proxytunnel ${base()}/hello && curl -sS http://a.wild.test:${allowed.port}/hello`);
    expect(result.output).toBe('hello from allowed\n'.repeat(3));
    expect(result.exitCode).toBe(0);
    expect(allowed.connections - before).toBe(3);
    expect(result.network).toEqual({ allowed: [`allowed.test:${allowed.port}`, `a.wild.test:${allowed.port}`], refused: [] });
    expect(logs).toContainEqual({ level: 'info', fields: expect.objectContaining({ host: 'a.wild.test', port: allowed.port, address: '127.0.0.1' }), message: 'tools-shell: network allowed' });
  });

  it("lets node's fetch through with undici's EnvHttpProxyAgent and ProxyAgent (Node 20's fetch ignores the proxy variables)", async () => {
    const script = `const u = require(${JSON.stringify(undici)});
      (async () => {
        const a = await (await u.fetch(${JSON.stringify(`${base()}/hello`)}, { dispatcher: new u.EnvHttpProxyAgent() })).text();
        const b = await (await u.fetch(${JSON.stringify(`${base()}/hello`)}, { dispatcher: new u.ProxyAgent(process.env.HTTPS_PROXY) })).text();
        process.stdout.write(a + b);
      })().catch((e) => { console.error('failed', e.cause?.code ?? e.message); process.exit(1); });`;
    // --no-warnings: undici 6 calls EnvHttpProxyAgent experimental.
    const result = await shell.value(`node --no-warnings -e '${script.replaceAll("'", "'\\''")}'`);
    expect(result.output).toBe('hello from allowed\nhello from allowed\n');
  });

  it('clones a git repository over HTTP from an allowed name', async () => {
    const result = await shell.value(`git clone -q ${base()}/repo.git cloned && cat cloned/README && rm -rf cloned`);
    expect(result.output).toBe('served over dumb http\n');
    expect(result.exitCode).toBe(0);
  });

  it('lets one call reach the exact hosts it names in its network argument, and no other call', async () => {
    const url = `http://extra.test:${allowed.port}/hello`;
    const named = await shell.value(`curl -sS ${url}`, { network: ['Extra.Test'] });
    expect(named.output).toBe('hello from allowed\n');
    const unnamed = await shell.value(`curl -sS ${url}`);
    expect(unnamed.network?.refused).toEqual([{ host: 'extra.test', port: allowed.port, reason: 'not in network.allow' }]);
    const wildcard = await shell.run(`curl -sS ${url}`, { network: ['*.test'] });
    expect(wildcard.ok).toBe(false);
    if (!wildcard.ok) expect(wildcard.error.code).toBe('INVALID_ARGUMENTS');
  });

  it('reports each allowed and refused host as a span event on the span active when the call started', async () => {
    const exporter = new InMemorySpanExporter();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      await trace.getTracer('test').startActiveSpan('execute_tool run_command', async (span) => {
        await shell.value(`curl -sS ${base()}/hello; curl -sS http://denied.test:${denied.port}/hello`);
        span.end();
      });
      const events = exporter.getFinishedSpans()[0]!.events.filter((event) => event.name === 'weir.shell.network');
      expect(events.map((event) => event.attributes)).toEqual([
        { 'server.address': 'allowed.test', 'server.port': allowed.port, 'weir.network.decision': 'allow', 'network.peer.address': '127.0.0.1' },
        { 'server.address': 'denied.test', 'server.port': denied.port, 'weir.network.decision': 'deny', 'weir.network.reason': 'not in network.allow' },
      ]);
    } finally {
      trace.disable();
      context.disable();
    }
  });

  it('refuses a name not in the list, with the proxy answer naming it in the output and in the result', async () => {
    const result = await shell.value(`curl -sS http://denied.test:${denied.port}/hello; curl -sS -p https://denied.test:443/ 2>&1 | head -c 200; echo`);
    expect(result.output).toContain(`weir sandbox: network access to denied.test:${denied.port} refused: not in network.allow`);
    expect(result.network?.refused).toEqual([
      { host: 'denied.test', port: denied.port, reason: 'not in network.allow' },
      { host: 'denied.test', port: 443, reason: 'not in network.allow' },
    ]);
    const call = await shell.run(`curl -sS http://denied.test:${denied.port}/hello`);
    expect(call.ok).toBe(true);
    expect(call.content).toContain(`[network refused: denied.test:${denied.port} (not in network.allow)]`);
    expect(counts()).toEqual(zero);
    expect(logs).toContainEqual({ level: 'warn', fields: expect.objectContaining({ host: 'denied.test', port: denied.port, reason: 'not in network.allow' }), message: 'tools-shell: network refused' });
    // A refused name is never even resolved.
    expect(lookups).not.toContain('denied.test');
  });

  it('compares names normalised: case and a trailing dot neither open a denied name nor close an allowed one', async () => {
    const result = await shell.value(`curl -sS http://DENIED.Test.:${denied.port}/hello; curl -sS http://allowed.test.denied.test:${allowed.port}/hello; curl -sS http://ALLOWED.Test.:${allowed.port}/hello`);
    expect(result.output).toContain(`network access to denied.test:${denied.port} refused`);
    expect(result.output).toContain(`network access to allowed.test.denied.test:${allowed.port} refused: not in network.allow`);
    expect(result.output).toContain('hello from allowed\n');
    expect(counts()).toEqual(zero);
  });

  it('refuses an allowed name that resolves to a private or loopback address not allowed', async () => {
    const result = await shell.value(`curl -sS http://internal.test:${internal.port}/hello; curl -sS -p http://internal.test:${internal.port}/hello 2>&1`);
    expect(result.output).toContain(`network access to internal.test:${internal.port} refused: it resolves to 127.0.0.2, a loopback, private or link-local address not in network.allowAddresses`);
    expect(result.network?.refused.map((entry) => entry.host)).toEqual(['internal.test']);
    expect(counts()).toEqual(zero);
  });

  it('refuses a CONNECT (and plain HTTP) to an allowed name on a port not allowed', async () => {
    const result = await shell.value(`curl -sS -p http://allowed.test:${otherPort.port}/hello 2>&1; curl -sS http://allowed.test:${otherPort.port}/hello`);
    expect(result.output).toContain(`network access to allowed.test:${otherPort.port} refused: port ${otherPort.port} is not in network.ports`);
    expect(result.output).toContain('CONNECT tunnel failed, response 403');
    expect(counts()).toEqual(zero);
  });

  it('refuses raw IP addresses, through the proxy and around it', async () => {
    const before = allowed.connections;
    const result = await shell.value([
      // Through the proxy: an IP literal is never a name.
      `NO_PROXY= no_proxy= curl -sS http://127.0.0.1:${allowed.port}/hello`,
      `NO_PROXY= no_proxy= curl -sS -p http://127.0.0.1:${denied.port}/hello 2>&1`,
      // Around it: the sandbox's loopback is its own, and there is no route anywhere else.
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${allowed.port}/hello 2>&1`,
      `curl -sS --max-time 5 --noproxy '*' http://allowed.test:${allowed.port}/hello 2>&1`,
      `curl -sS --max-time 5 -6 --noproxy '*' "http://[::1]:${allowed.port}/hello" 2>&1`,
      'echo done',
    ].join('; '));
    expect(result.output).toContain(`network access to 127.0.0.1:${allowed.port} refused: raw IP addresses are never allowed`);
    // curl shows only the status of a refused CONNECT; the result names the host.
    expect(result.output).toContain('CONNECT tunnel failed, response 403');
    expect(result.network?.refused).toEqual([
      { host: '127.0.0.1', port: allowed.port, reason: 'raw IP addresses are never allowed; use a host name in network.allow' },
      { host: '127.0.0.1', port: denied.port, reason: 'raw IP addresses are never allowed; use a host name in network.allow' },
    ]);
    expect(result.output).toMatch(/Failed to connect to 127\.0\.0\.1 port \d+|Couldn't connect/);
    expect(result.output).toMatch(/Could not resolve host: allowed\.test/);
    expect(result.output).not.toContain('hello from');
    expect(allowed.connections).toBe(before);
    expect(counts()).toEqual(zero);
  });

  it('gives a program that ignores the proxy variables no way out: TCP, UDP and DNS all fail', async () => {
    const hostAddresses = Object.values(networkInterfaces()).flat().filter((entry) => entry !== undefined && !entry.internal).map((entry) => entry!.address);
    const script = `const net = require('node:net'); const dgram = require('node:dgram'); const dns = require('node:dns');
      const tcp = (host, port) => new Promise((r) => { const s = net.connect({ host, port, timeout: 3000 }); s.on('connect', () => { s.destroy(); r(host + ' open'); }); s.on('error', (e) => r(host + ' ' + e.code)); s.on('timeout', () => { s.destroy(); r(host + ' timeout'); }); });
      const udp = (host, port) => new Promise((r) => { const s = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4'); const q = Buffer.from('abcd01000001000000000000076578616d706c6503636f6d0000010001', 'hex');
        s.on('message', () => { s.close(); r(host + ':' + port + ' answered'); }); s.on('error', (e) => { s.close(); r(host + ':' + port + ' ' + e.code); });
        s.send(q, port, host, (e) => { if (e) return; setTimeout(() => { try { s.close(); } catch {} r(host + ':' + port + ' no answer'); }, 1000); }); });
      (async () => {
        const out = [];
        out.push(await tcp('127.0.0.1', ${allowed.port}));
        for (const a of ${JSON.stringify(hostAddresses)}) out.push(await tcp(a, ${allowed.port}));
        out.push(await udp('127.0.0.53', 53));
        out.push(await udp('127.0.0.1', ${resolver.port}));
        out.push(await new Promise((r) => dns.lookup('allowed.test', (e, a) => r('lookup ' + (e ? e.code : a)))));
        console.log(out.join('\\n'));
      })();`;
    const result = await shell.value(`node -e '${script.replaceAll("'", "'\\''")}'; exec 3<>/dev/tcp/127.0.0.1/${allowed.port} 2>&1 || echo 'dev/tcp refused'; ip -o addr 2>/dev/null | awk '{print $2}' | sort -u | tr '\\n' ' '; echo`);
    const lines = result.output.split('\n');
    expect(lines[0]).toBe('127.0.0.1 ECONNREFUSED');
    for (const [index, address] of hostAddresses.entries()) expect(lines[1 + index]).toMatch(new RegExp(`^${address.replaceAll('.', '\\.')} (ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|EINVAL|timeout)$`));
    expect(result.output).not.toContain('open');
    expect(result.output).not.toContain('answered');
    expect(result.output).toMatch(/lookup (ENOTFOUND|EAI_AGAIN)/);
    expect(result.output).toContain('dev/tcp refused');
    expect(allowed.connections).toBeGreaterThan(0);
    expect(counts()).toEqual(zero);
  });

  it('runs the proxy only while the command runs, and leaves nothing listening after unload', async () => {
    const result: CommandResult = await shell.value('ls -l /run/weir/proxy.sock | cut -c1; grep -o "weir-shell-[^/ ]*/net-[^/ ]*/proxy.sock" /proc/self/mountinfo');
    const [kind, mounted] = result.output.trim().split('\n');
    expect(kind).toBe('s');
    const [scratchName, netName] = mounted!.split('/');
    const scratch = join(tmpdir(), scratchName!);
    const unixSockets = () => readFileSync('/proc/net/unix', 'utf8');
    // After the command: its socket is gone from the file system and from the kernel's table.
    expect(existsSync(join(scratch, netName!))).toBe(false);
    expect(unixSockets()).not.toContain(`${netName}/proxy.sock`);
    const servers = () => process.getActiveResourcesInfo().filter((name) => name === 'PipeServerWrap').length;
    const before = servers();
    await shell.harness.close();
    expect(existsSync(scratch)).toBe(false);
    expect(unixSockets()).not.toContain(scratchName);
    expect(servers()).toBe(before);
    expect(counts()).toEqual(zero);
  });
});
