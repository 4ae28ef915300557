export { safety } from './safety.js';
export type { SafetyOptions, SafetyPlugin } from './safety.js';
export { loadSafetySettings, PROJECT_SETTINGS_FILE } from './safety-settings.js';
export type { SafetySettings, SettingsLayer, SettingsSources } from './safety-settings.js';
export { SafetyError, isSafetyError } from './safety-error.js';
export type { SafetyErrorCode } from './safety-error.js';

export { SAFETY_MODES } from './safety-mode.js';
export type { SafetyMode } from './safety-mode.js';
export type { PermissionRule, RuleMatcher, RuleTarget } from './permission-rule.js';
export type { FileAction } from './file-actions.js';
export type { RuleKey } from './rule-keys.js';
export type { RuleSubject } from './rule-subject.js';
export { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';

export { terminalApprover } from './terminal-approver.js';
export type { TerminalApproverOptions } from './terminal-approver.js';
export type { Approver, ApproverAnswer, ApproverRequest } from './approver.js';

export { escapeForTerminal } from './escape-for-terminal.js';
