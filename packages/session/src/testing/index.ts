export { assertSessionStoreConformance } from './assert-session-store-conformance.js';
export type { ConformanceRunner, ConformanceStore } from './assert-session-store-conformance.js';
export { checkApprovalFleet, fleetDecision, serveApprovalRoles, settleApprovals } from './approval-fleet.js';
export type { ApprovalFleetFigures, ApprovalFleetOptions } from './approval-fleet.js';
