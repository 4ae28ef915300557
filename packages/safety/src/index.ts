export { safety } from './safety.js';
export type { SafetyOptions } from './safety.js';

export { SAFETY_MODES } from './safety-mode.js';
export type { SafetyMode } from './safety-mode.js';
export type { PermissionRule } from './permission-rule.js';
export { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';

export { terminalApprover } from './terminal-approver.js';
export type { TerminalApproverOptions } from './terminal-approver.js';
export type { Approver, ApproverAnswer, ApproverRequest } from './approver.js';

export { escapeForTerminal } from './escape-for-terminal.js';
