// The pieces the memory and file stores are made of, for a store in another package (PostgreSQL,
// Redis): the one `Session` implementation, record preparation and checks, forks, summaries, image
// blobs. A store built from them numbers, checks and rebuilds records exactly as these do.
export { WritableSession } from '../writable-session.js';
export type { RecordSink, WritableSessionOptions } from '../writable-session.js';
export { prepareRecord } from '../prepare-record.js';
export type { PreparedRecord } from '../prepare-record.js';
export { encodeRecord } from '../record-codec.js';
export { scanSessionLog } from '../scan-session-log.js';
export type { LogDamage, LogScan, TornTail } from '../scan-session-log.js';
export { planFork } from '../plan-fork.js';
export type { ForkPlan } from '../plan-fork.js';
export { byUpdatedDescending, summarizeSession } from '../summarize-session.js';
export type { ListingKey } from '../summarize-session.js';
export { checkListOptions, pageOfSummaries } from '../page-of-summaries.js';
export { blobRefsOf, externalizeImages, inlineImages } from '../image-blobs.js';
export type { BlobLookup, ImageBlob } from '../image-blobs.js';
export { assertSessionId } from '../session-id.js';
export { fenced as sessionFencedError } from '../fenced-error.js';
