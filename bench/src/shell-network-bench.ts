import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness } from '@weir/core';
import { shellTools, type CommandResult, type ShellToolsOptions } from '@weir/tools-shell';
import { median, printTable } from './measure.js';

const BYTES = 10 * 1024 * 1024;
/** 1 Gbit/s in bytes per millisecond, and the slice the paced server sends at a time. */
const LINK_BYTES_PER_MS = 1e9 / 8 / 1000;
const PACED_SLICE = 256 * 1024;

/**
 * A 10 MB download with curl inside the sandbox: through the filtering proxy (`network: { allow }`,
 * plain HTTP and a CONNECT tunnel) against the same download with the host's network shared
 * (`network: true`), from one server on 127.0.0.1, rounds interleaved in the same run. The figure
 * is curl's own transfer time (`%{time_total}`): the sandbox's start is the same on both sides but
 * for the forwarder's (shown apart, as the whole command's time). Target: at most 20% slower.
 */
export async function shellNetworkBench(options: { quick: boolean }): Promise<void> {
  const body = Buffer.alloc(BYTES, 0x61);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': BYTES });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // The same body at a link's pace (1 Gbit/s, in 256 KiB slices on a schedule): a download from a
  // real host is bound by its link, and what matters is what the relays add to that.
  const paced = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': BYTES });
    const started = performance.now();
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      const slice = body.subarray(sent, sent + PACED_SLICE);
      sent += slice.length;
      if (sent >= BYTES) return void res.end(slice);
      res.write(slice);
      setTimeout(next, Math.max(0, started + (sent / LINK_BYTES_PER_MS) - performance.now()));
    };
    next();
  });
  await new Promise<void>((resolve) => paced.listen(0, '127.0.0.1', resolve));
  const pacedPort = (paced.address() as AddressInfo).port;
  const roots: string[] = [];
  const harnesses: Harness[] = [];
  const load = async (network: ShellToolsOptions['network']) => {
    const root = await mkdtemp(join(tmpdir(), 'weir-bench-net-'));
    if (process.getuid?.() === 0) await chown(root, 65534, 65534);
    roots.push(root);
    const harness = createHarness();
    harnesses.push(harness);
    await harness.use(shellTools({ root, network }));
    return harness;
  };
  try {
    let open: Harness;
    let filtered: Harness;
    try {
      open = await load(true);
      filtered = await load({ allow: ['download.test'], ports: [port, pacedPort], allowAddresses: ['127.0.0.1'], lookup: async () => ['127.0.0.1'] });
    } catch (error) {
      console.log(`\nShell network: skipped, the sandbox is not available here (${(error as Error).message.slice(0, 200)})`);
      return;
    }
    const perCommand = options.quick ? 2 : 5;
    const curl = (url: string, extra = '') => `for i in $(seq ${perCommand}); do curl -sS ${extra} -o /dev/null -w '%{time_total} %{size_download}\\n' ${url} || exit 1; done`;
    const cases = {
      'network: true (no proxy)': { harness: open, command: curl(`http://127.0.0.1:${port}/`) },
      'network.allow, plain HTTP via proxy': { harness: filtered, command: curl(`http://download.test:${port}/`) },
      'network.allow, CONNECT tunnel': { harness: filtered, command: curl(`http://download.test:${port}/`, '--proxytunnel') },
      'network: true, 1 Gbit/s link': { harness: open, command: curl(`http://127.0.0.1:${pacedPort}/`) },
      'network.allow, plain HTTP, 1 Gbit/s link': { harness: filtered, command: curl(`http://download.test:${pacedPort}/`) },
      'network.allow, CONNECT, 1 Gbit/s link': { harness: filtered, command: curl(`http://download.test:${pacedPort}/`, '--proxytunnel') },
    };
    const transfer: Record<string, number[]> = {};
    const command: Record<string, number[]> = {};
    let id = 0;
    const rounds = options.quick ? 2 : 7;
    for (let round = 0; round <= rounds; round += 1) {
      for (const [name, { harness, command: line }] of Object.entries(cases)) {
        const started = performance.now();
        const result = await harness.executeToolCall({ id: `bench-net-${++id}`, name: 'run_command', arguments: { command: line } });
        const elapsed = performance.now() - started;
        if (!result.ok) throw new Error(`shell network bench: ${name} failed: ${result.content}`);
        const value = result.value as CommandResult;
        if (value.exitCode !== 0) throw new Error(`shell network bench: ${name} failed: ${value.output}`);
        if (round === 0) continue; // warm-up
        for (const line of value.output.trim().split('\n')) {
          const [seconds, size] = line.split(' ');
          if (Number(size) !== BYTES) throw new Error(`shell network bench: ${name} downloaded ${size} bytes, not ${BYTES}`);
          (transfer[name] ??= []).push(Number(seconds) * 1000);
        }
        (command[name] ??= []).push(elapsed / perCommand);
      }
    }
    const base = median([...transfer['network: true (no proxy)']!]);
    const pacedBase = median([...transfer['network: true, 1 Gbit/s link']!]);
    console.log(`\nShell network: a 10 MB download with curl in the sandbox, through the filtering proxy vs the network on, from memory and at a link's pace (medians of ${rounds} interleaved rounds x ${perCommand}; target <= 1.20x)`);
    printTable(
      ['case', 'ms/download', 'x network on', 'ms/command per download'],
      Object.keys(cases).map((name) => {
        const ms = median([...transfer[name]!]);
        return [name, ms.toFixed(2), (ms / (name.endsWith('link') ? pacedBase : base)).toFixed(2), median([...command[name]!]).toFixed(1)];
      }),
    );
  } finally {
    for (const harness of harnesses) await harness.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => paced.close(() => resolve()));
    for (const root of roots) await rm(root, { recursive: true, force: true });
  }
}
