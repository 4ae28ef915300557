/**
 * An agent whose file tools execute on a worker process. The agent keeps the policy (guards,
 * approval, output checks) and the model; the worker, started here as a child process, holds the
 * files and runs the tool bodies. The agent's own copy of the tools points at an empty folder:
 * every file it reads can only have come from the worker.
 *
 * Run: `tsx --conditions=@weir/source examples/scale-out/agent.ts [lines...]`. Uses REDIS_URL when
 * set, otherwise starts a redis-server of its own. The model is the deterministic mock. Jobs are
 * signed with WEIR_JOB_KEY when set (the same key the workers have), else a key made for this run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAgent, createHarness } from '@weir/core';
import { remoteDispatch } from '@weir/dispatch-bullmq';
import { createMockModel } from '@weir/llm-mock';
import { fsTools } from '@weir/tools-fs';
import { redisForExample } from './redis.js';

const lines = process.argv.length > 2 ? process.argv.slice(2) : ['list dir .', 'read file notes.txt', 'read file missing.txt'];
const queue = 'fs-tools';
const workspace = fileURLToPath(new URL('./workspace/', import.meta.url));
// The agent and its workers share this key; Redis never sees it, so a writer to Redis cannot sign a job.
const jobKey = process.env.WEIR_JOB_KEY ?? randomBytes(32).toString('base64');
const oneLine = (text: string) => text.replace(/\n/g, ' ⏎ ');

const redis = await redisForExample();
const worker = await startWorker(redis.url);
const placeholder = await mkdtemp(path.join(tmpdir(), 'weir-agent-side-'));
const harness = createHarness();
try {
  // The tool definitions (schemas, tiers, output) live on the agent; their bodies run on the worker.
  await harness.use(fsTools({ root: placeholder }));
  await harness.use(remoteDispatch({ connection: redis.url, queue, signingKey: jobKey }));
  const agent = createAgent({ model: createMockModel(), harness, system: 'You can read files and list folders with your tools.', maxSteps: 6 });
  for (const line of lines) {
    console.log(`[user] ${line}`);
    await agent.turn(line, {
      stream: false,
      onEvent(event) {
        if (event.type === 'tool-result') {
          const { result } = event;
          console.log(`[tool:${event.call.name} on the worker] -> ${result.ok ? oneLine(result.content) : `ERR ${result.error.code}: ${oneLine(result.error.message)}`}`);
        } else if (event.type === 'model-call-end' && event.response.text !== '') {
          console.log(`[assistant] ${oneLine(event.response.text)}`);
        }
      },
    });
  }
} finally {
  await harness.close();
  await worker.stop();
  await redis.stop();
  await rm(placeholder, { recursive: true, force: true });
}

/** Starts worker.ts as its own process (the TypeScript loader inside it) and waits until it listens. */
async function startWorker(url: string): Promise<{ stop(): Promise<void> }> {
  const tsx = pathToFileURL(fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@weir/source', fileURLToPath(new URL('./worker.ts', import.meta.url))], {
    env: { ...process.env, REDIS_URL: url, QUEUE: queue, ROOT: workspace, WEIR_JOB_KEY: jobKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        console.log(`[worker] pid ${child.pid} listens on queue "${queue}"`);
        resolve();
      }
    });
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
