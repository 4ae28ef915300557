export { assertSessionStoreConformance } from './assert-session-store-conformance.js';
export type { ConformanceRunner, ConformanceStore } from './assert-session-store-conformance.js';
