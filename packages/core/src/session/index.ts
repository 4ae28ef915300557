export { createMemorySessionStore } from './memory-session-store.js';
export type { MemorySessionStoreOptions } from './memory-session-store.js';
export { createFileSessionStore } from './file-session-store.js';
export type { FileSessionStoreOptions } from './file-session-store.js';
export type { SessionFile, SessionFileSystem } from './session-file-system.js';
export type {
  AppendOptions,
  CreateSessionOptions,
  ForkSessionOptions,
  Session,
  SessionRecovery,
  SessionStore,
  SessionSummary,
} from './session-store.js';

export { SESSION_RECORD_VERSION } from './session-record.js';
export type { SessionEntry, SessionMeta, SessionRecord } from './session-record.js';

export { INTERRUPTED_CALL_CONTENT, rebuildHistory, UNSTARTED_CALL_CONTENT } from './rebuild-history.js';
export type { InterruptedCall, RebuildHistoryOptions, SessionHistory } from './rebuild-history.js';
export { ApprovalLedger } from './approval-ledger.js';
export type { ApprovalDecisionRecord } from './approval-ledger.js';

export { createSessionId, isValidSessionId } from './session-id.js';
