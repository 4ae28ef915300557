export { assertPluginConformance, ConformanceError } from './assert-plugin-conformance.js';
export type { ConformanceOptions, ConformanceReport } from './assert-plugin-conformance.js';
export { diffSnapshots, snapshotHarness } from './harness-snapshot.js';
export type { HarnessSnapshot } from './harness-snapshot.js';
