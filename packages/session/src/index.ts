export { createMemorySessionStore } from './memory-session-store.js';
export type { MemorySessionStoreOptions } from './memory-session-store.js';
export { createFileSessionStore } from './file-session-store.js';
export type { FileSessionStoreOptions } from './file-session-store.js';
export type { SessionFile, SessionFileSystem } from './session-file-system.js';
export type { CreateSessionOptions, ForkSessionOptions, ListSessionsOptions, OpenSessionOptions, SessionStore, SessionSummary, WriterSession } from './session-store.js';
export type { BlobCollection } from './collect-blobs.js';
export { rebuildHistory } from './rebuild-history.js';
export { pendingApprovalsOf } from './pending-approvals.js';
export type { PendingApproval } from './pending-approvals.js';
export { listPendingApprovals } from './list-pending-approvals.js';
export type { ListPendingApprovalsOptions } from './list-pending-approvals.js';
export { answerApproval } from './answer-approval.js';
export type { ApprovalAnswer, ApprovalAnswerKey } from './answer-approval.js';
export { createSessionId, isValidSessionId } from './session-id.js';

// The interface the agent loop records through lives in @weir/core (the package depends on core, so
// core cannot import from here); it is repeated here so a store's user needs one import.
export {
  ApprovalLedger,
  currentRecords,
  INTERRUPTED_CALL_CONTENT,
  rewindTarget,
  sessionTurns,
  SESSION_RECORD_VERSION,
  UNSTARTED_CALL_CONTENT,
  type AppendOptions,
  type ApprovalDecisionRecord,
  type InterruptedCall,
  type RebuildHistoryOptions,
  type Session,
  type SessionEntry,
  type SessionHistory,
  type SessionMeta,
  type SessionRecord,
  type SessionRecovery,
  type SessionTurn,
} from '@weir/core';
