export { serveAcp } from './serve-acp.js';
export type { AcpServer, ServeAcpOptions } from './serve-acp.js';
export { serveAcpOnStdio } from './node-stdio.js';
export { DEFAULT_PERMISSION_TIMEOUT_MS } from './ask-client.js';
export { AcpAuthRequiredError } from './acp-host.js';
export type { AcpApprover, AcpEditorFiles, AcpHost, AcpMcpServer, AcpOpenRequest, AcpRefusedPrompt, AcpWeirSession, PermissionAnswer, PermissionAsk } from './acp-host.js';
