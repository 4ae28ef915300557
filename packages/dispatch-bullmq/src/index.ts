export { remoteDispatch, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_PICKUP_TIMEOUT_MS } from './remote-dispatch.js';
export type { RemoteDispatchOptions, RemoteProgress } from './remote-dispatch.js';

export { startToolWorker } from './start-tool-worker.js';
export type { ToolWorker, ToolWorkerOptions } from './start-tool-worker.js';

export { DEFAULT_PREFIX, TOOL_JOB_VERSION, toolJobId } from './tool-job.js';
export type { ToolJob, ToolJobOutcome } from './tool-job.js';
export type { RedisConnection } from './redis-client.js';
export { MIN_SIGNING_KEY_BYTES } from './job-signature.js';
export type { SigningKey } from './job-signature.js';
