// A worker process for the scale-out bench. argv[2]: 'weir' (startToolWorker with an echo tool) or
// 'bare' (a plain BullMQ Worker that answers the job's call the way weir's worker does:
// { ok: true, value }). Env: REDIS_URL, QUEUE, WEIR_JOB_KEY (the signing key the bench's agent uses).
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { startToolWorker } from '@weir/dispatch-bullmq';
import { echoPlugin } from '../echo-tool.js';

const kind = process.argv[2];
const url = process.env.REDIS_URL!;
const queue = process.env.QUEUE!;
const concurrency = 32;

let close: () => Promise<void>;
if (kind === 'weir') {
  const worker = await startToolWorker({ connection: url, queue, signingKey: process.env.WEIR_JOB_KEY!, plugins: [echoPlugin()], concurrency });
  close = () => worker.close();
} else {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const worker = new Worker(queue, async (job) => ({ ok: true, value: (job.data as { arguments: { text: string } }).arguments.text }), { connection, concurrency });
  await worker.waitUntilReady();
  close = async () => {
    await worker.close();
    connection.disconnect();
  };
}
process.stdout.write('ready\n');
process.on('SIGTERM', () => void close().then(() => process.exit(0)));
