export { safety } from './safety.js';
export type { SafetyOptions, SafetyPlugin } from './safety.js';
export { CLAUDE_PROJECT_SETTINGS_FILES, hookLayers, loadSafetySettings, networkAllowOf, PROJECT_SETTINGS_FILE } from './settings/safety-settings.js';
export type { CompatSettings, HookSettingsLayer, SafetySettings, SettingsLayer, SettingsSources } from './settings/safety-settings.js';
export { SafetyError, isSafetyError } from './safety-error.js';
export type { SafetyErrorCode } from './safety-error.js';

export { SAFETY_MODES } from './settings/safety-mode.js';
export type { SafetyMode } from './settings/safety-mode.js';
export type { PermissionRule, RuleMatcher, RuleTarget } from './rules/permission-rule.js';
export type { FileAction } from './rules/file-actions.js';
export type { RuleKey } from './rules/rule-keys.js';
export type { RuleSubject } from './rules/rule-subject.js';
export { DEFAULT_PROTECTED_PATHS } from './rules/protected-paths.js';

export { terminalApprover } from './approvals/terminal-approver.js';
export type { TerminalApproverOptions } from './approvals/terminal-approver.js';
export type { Approver, ApproverAnswer, ApproverRequest } from './approvals/approver.js';

export { escapeForTerminal } from './approvals/escape-for-terminal.js';
