import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { getHeapStatistics, GCProfiler } from 'node:v8';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { createAnthropicModel } from '@weir/llm-anthropic';
import { createGoogleModel } from '@weir/llm-google';
import { createOpenAIModel } from '@weir/llm-openai';
import OpenAI from 'openai';
import { median, printTable } from './measure.js';

/**
 * The native adapters beside the official clients, on the same recorded bytes, in the same run:
 * every streamed Responses API recording (`raw` SSE captures) through `@weir/llm-openai`
 * (`api: 'responses'`) and `openai`'s `responses.stream()`, every Gemini `alt=sse` capture through
 * `@weir/llm-google` and `@google/genai`'s `generateContentStream()`, every Anthropic Messages SSE
 * capture through `@weir/llm-anthropic` and `@anthropic-ai/sdk`'s `messages.stream().finalMessage()`.
 * The bytes come from a `fetch` that answers from memory (no network, no server), so what is timed
 * is parsing and assembling. Beside the time, the heap each reader allocates per stream (and what it
 * still holds after a full collection), in separate rounds so the collections do not touch the
 * timings. Then cold import of each adapter's built entry against its official client, fresh
 * processes, interleaved. Target: each adapter at most half of its client's import time.
 */

const BENCH_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RECORDINGS = process.env['WEIR_SHARED_FIXTURES'] ?? join(BENCH_ROOT, '..', '..', 'shared', 'fixtures');

interface Manifest {
  readonly fixtures: readonly { readonly file: string; readonly wire: string; readonly kind: string; readonly extra?: { readonly steps?: unknown } }[];
}

/** The raw SSE bodies of one provider's stream recordings. */
function streams(provider: Provider): string[] {
  const folder = join(RECORDINGS, 'recorded-streams', provider);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as Manifest;
  return manifest.fixtures.filter((entry) => entry.wire === 'sse' && entry.kind === 'stream' && entry.extra?.steps === undefined).map((entry) => readFileSync(join(folder, '..', entry.file), 'utf8'));
}

/** A `fetch` that answers every request with `body` as an event stream, from memory. */
function replaying(body: string): typeof fetch {
  const bytes = new TextEncoder().encode(body);
  return async () => new Response(bytes, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

type Reader = (body: string) => Promise<void>;
type Provider = 'openai-responses' | 'gemini' | 'anthropic';

const readers: Record<Provider, Record<string, Reader>> = {
  'openai-responses': {
    '@weir/llm-openai': async (body) => {
      const model = createOpenAIModel({ baseURL: 'http://bench.invalid/v1', apiKey: 'sk-bench', model: 'gpt-5', api: 'responses', fetch: replaying(body), maxRetries: 0 });
      await model.complete({ messages: [{ role: 'user', content: 'Go.' }], tools: [] });
    },
    'openai responses.stream': async (body) => {
      const client = new OpenAI({ apiKey: 'sk-bench', baseURL: 'http://bench.invalid/v1', fetch: replaying(body), maxRetries: 0 });
      await client.responses.stream({ model: 'gpt-5', input: 'Go.' }).finalResponse();
    },
  },
  gemini: {
    '@weir/llm-google': async (body) => {
      const model = createGoogleModel({ apiKey: 'AIza-bench', model: 'gemini-2.5-flash', fetch: replaying(body), maxRetries: 0 });
      await model.complete({ messages: [{ role: 'user', content: 'Go.' }], tools: [] });
    },
    '@google/genai generateContentStream': async (body) => {
      // The client takes no fetch of its own: the global one answers from memory while it reads.
      const real = globalThis.fetch;
      globalThis.fetch = replaying(body);
      try {
        const client = new GoogleGenAI({ apiKey: 'AIza-bench' });
        for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Go.' })) void chunk;
      } finally {
        globalThis.fetch = real;
      }
    },
  },
  anthropic: {
    '@weir/llm-anthropic': async (body) => {
      const model = createAnthropicModel({ apiKey: 'sk-ant-bench', model: 'claude-sonnet-4-5', baseURL: 'http://bench.invalid', fetch: replaying(body), maxRetries: 0 });
      await model.complete({ messages: [{ role: 'user', content: 'Go.' }], tools: [] });
    },
    '@anthropic-ai/sdk messages.stream': async (body) => {
      const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: 'http://bench.invalid', fetch: replaying(body), maxRetries: 0 });
      await client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 8192, messages: [{ role: 'user', content: 'Go.' }] }).finalMessage();
    },
  },
};

/** Microseconds per stream for each reader, median of `rounds` interleaved rounds over every recording. */
async function timeReaders(bodies: readonly string[], byName: Record<string, Reader>, rounds: number): Promise<Map<string, number>> {
  const samples = new Map<string, number[]>(Object.keys(byName).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, read] of Object.entries(byName)) {
      const started = performance.now();
      for (const body of bodies) await read(body);
      // Round 0 warms up both (JIT, module loading).
      if (round > 0) samples.get(name)!.push(((performance.now() - started) * 1000) / bodies.length);
    }
  }
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

interface HeapFigures {
  /** Bytes allocated on the V8 heap per stream: the growth of the used heap over a batch plus what every collection during it freed. */
  readonly allocated: number;
  /** Bytes per stream still on the heap after a full collection at the end of the batch (caches; near 0 is expected). */
  readonly retained: number;
}

/**
 * Heap per stream for each reader, median of `rounds` interleaved rounds over every recording.
 * Each batch starts after a full collection; `GCProfiler` reports every collection inside the batch
 * with the used heap before and after it, so the bytes the batch allocated are counted even when the
 * young generation is swept in the middle. Needs `--expose-gc` (the bench script sets it).
 */
async function heapOfReaders(bodies: readonly string[], byName: Record<string, Reader>, rounds: number): Promise<Map<string, HeapFigures>> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const allocated = new Map<string, number[]>(Object.keys(byName).map((name) => [name, []]));
  const retained = new Map<string, number[]>(Object.keys(byName).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, read] of Object.entries(byName)) {
      gc();
      const before = getHeapStatistics().used_heap_size;
      const profiler = new GCProfiler();
      profiler.start();
      for (const body of bodies) await read(body);
      const after = getHeapStatistics().used_heap_size;
      const collections = profiler.stop()?.statistics ?? [];
      const freed = collections.reduce((sum, entry) => sum + entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize, 0);
      // What the batch left to the event loop (a body's cancel, a timer's clear) runs before the count.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const kept = getHeapStatistics().used_heap_size - before;
      // Round 0 warms up (JIT, lazily built tables and caches).
      if (round === 0) continue;
      allocated.get(name)!.push((after - before + freed) / bodies.length);
      retained.get(name)!.push(kept / bodies.length);
    }
  }
  return new Map(Object.keys(byName).map((name) => [name, { allocated: median(allocated.get(name)!), retained: median(retained.get(name)!) }]));
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** Median milliseconds of one `import()` of `url` in a fresh process, interleaved with the others. */
function coldImports(urls: Record<string, string>, runs: number): Map<string, number> {
  const child = 'const t = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t));';
  const samples = new Map<string, number[]>(Object.keys(urls).map((name) => [name, []]));
  for (let run = 0; run <= runs; run++) {
    for (const [name, url] of Object.entries(urls)) {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', child, url], { cwd: BENCH_ROOT, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '' } });
      if (result.status !== 0) throw new Error(`importing ${name} failed: ${result.stderr.slice(0, 500)}`);
      if (run > 0) samples.get(name)!.push(Number(result.stdout));
    }
  }
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

export async function providerStreamBench({ quick }: { quick: boolean }): Promise<void> {
  if (!existsSync(join(RECORDINGS, 'recorded-streams'))) {
    console.log(`\nProvider streams: skipped, ${RECORDINGS}/recorded-streams is absent (the shared fixtures lie beside the clone).`);
    return;
  }
  const rounds = quick ? 3 : 15;
  const heapRounds = quick ? 3 : 9;
  const canCollect = typeof (globalThis as { gc?: unknown }).gc === 'function';
  for (const provider of ['openai-responses', 'gemini', 'anthropic'] as const) {
    const bodies = streams(provider);
    const figures = await timeReaders(bodies, readers[provider], rounds);
    const heap = canCollect ? await heapOfReaders(bodies, readers[provider], heapRounds) : undefined;
    const [mine, theirs] = Object.keys(readers[provider]) as [string, string];
    console.log(
      `\nProvider streams (${provider}): ${bodies.length} recorded streams read from memory, µs per stream (median of ${rounds} interleaved rounds)` +
        (heap ? `, heap KiB allocated and retained per stream (median of ${heapRounds} interleaved rounds, each after a full collection)` : ', heap not measured (run node with --expose-gc)'),
    );
    const row = (name: string) => {
      const us = figures.get(name)!;
      const cells = [name, us.toFixed(0), name === mine ? `${(us / figures.get(theirs)!).toFixed(2)}x` : ''];
      if (!heap) return cells;
      const { allocated, retained } = heap.get(name)!;
      return [...cells, kib(allocated), name === mine ? `${(allocated / heap.get(theirs)!.allocated).toFixed(2)}x` : '', kib(retained)];
    };
    printTable(heap ? ['reader', 'µs per stream', 'ratio', 'KiB allocated per stream', 'ratio', 'KiB retained per stream'] : ['reader', 'µs per stream', 'ratio'], [row(mine), row(theirs)]);
  }

  const require = createRequire(join(BENCH_ROOT, 'package.json'));
  const entry = (dir: string) => {
    const file = join(BENCH_ROOT, '..', 'packages', dir, 'dist', 'index.js');
    if (!existsSync(file)) throw new Error(`Cold import measures built packages; run \`npx -y pnpm@10 build\` first (${file} is missing).`);
    return pathToFileURL(file).href;
  };
  const runs = quick ? 5 : 21;
  const imports = coldImports(
    {
      '@weir/llm-openai': entry('llm-openai'),
      openai: pathToFileURL(require.resolve('openai')).href,
      '@weir/llm-google': entry('llm-google'),
      '@google/genai': pathToFileURL(require.resolve('@google/genai')).href,
      '@weir/llm-anthropic': entry('llm-anthropic'),
      '@anthropic-ai/sdk': pathToFileURL(require.resolve('@anthropic-ai/sdk')).href,
    },
    runs,
  );
  console.log(`\nCold import of each adapter beside its official client: a fresh node process, median of ${runs} runs, interleaved. Target: at most half`);
  const ratio = (mine: string, theirs: string) => (imports.get(mine)! / imports.get(theirs)!).toFixed(2);
  printTable(
    ['entry', 'import ms', 'ratio'],
    [
      ['@weir/llm-openai', imports.get('@weir/llm-openai')!.toFixed(1), `${ratio('@weir/llm-openai', 'openai')}x openai`],
      ['openai', imports.get('openai')!.toFixed(1), ''],
      ['@weir/llm-google', imports.get('@weir/llm-google')!.toFixed(1), `${ratio('@weir/llm-google', '@google/genai')}x @google/genai`],
      ['@google/genai', imports.get('@google/genai')!.toFixed(1), ''],
      ['@weir/llm-anthropic', imports.get('@weir/llm-anthropic')!.toFixed(1), `${ratio('@weir/llm-anthropic', '@anthropic-ai/sdk')}x @anthropic-ai/sdk`],
      ['@anthropic-ai/sdk', imports.get('@anthropic-ai/sdk')!.toFixed(1), ''],
    ],
  );
}
