export { assertSessionStoreConformance } from './assert-session-store-conformance.js';
export type { ConformanceRunner, ConformanceStore } from './assert-session-store-conformance.js';
export { checkApprovalFleet, fleetDecision, serveApprovalRoles, settleApprovals } from './approval-fleet.js';
export type { ApprovalFleetCheckOptions, ApprovalFleetFigures, ApprovalFleetOptions } from './approval-fleet.js';
export { markerHarness, markerTool } from './marker-agent.js';
export type { MarkerEffect } from './marker-agent.js';
export { checkSessionFleet, serveFleetAppends } from './session-fleet.js';
export type { FleetAppendOptions, FleetFigures } from './session-fleet.js';
