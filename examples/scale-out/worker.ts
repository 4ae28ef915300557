/**
 * The worker process: the file tools' bodies run here, next to the files. Env: REDIS_URL, QUEUE,
 * ROOT (the workspace), WEIR_JOB_KEY (the key the agent signs jobs with). Prints "ready" once it listens; SIGTERM closes it gracefully.
 */
import { startToolWorker } from '@weir/dispatch-bullmq';
import { fsTools } from '@weir/tools-fs';

const worker = await startToolWorker({
  connection: process.env.REDIS_URL!,
  queue: process.env.QUEUE!,
  signingKey: process.env.WEIR_JOB_KEY!,
  plugins: [fsTools({ root: process.env.ROOT! })],
  concurrency: 4,
});
console.log(`ready ${worker.id}`);
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
