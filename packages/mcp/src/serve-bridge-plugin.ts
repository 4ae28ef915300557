import { definePlugin, isHarnessError, type ApprovalRequest, type Logger, type Plugin, type ToolExecution } from '@weir/core';
import { approvalMessage, type EscapeText } from './approval-message.js';
import { bindMcpClient } from './mcp-client-of.js';
import { MCP_LOG_LEVELS, mcpCallScope, type McpCallScope, type McpLogLevel } from './mcp-call-scope.js';

/**
 * What `serveHarness` loads into the harness: an approval responder that asks the calling MCP
 * client through elicitation (only when no other plugin holds the approval slot), and an execute
 * wrapper that gives a call made for an MCP client its progress and its log lines to that client.
 * Calls that do not come from an MCP client are left exactly as they were.
 */
export function serveBridgePlugin(name: string, approvals: 'client' | 'deny', escape: EscapeText): Plugin {
  const askTheClient = (request: ApprovalRequest) => ask(request, escape);
  return definePlugin({
    name: `mcp-serve:${name}`,
    setup(ctx) {
      // With 'deny' the slot stays free: no responder is the core's "deny", and a prompt loaded later may take it.
      if (approvals === 'client') {
        try {
          ctx.approval.setResponder(askTheClient);
        } catch (error) {
          // Another plugin (a terminal prompt, a policy) answers approvals: it keeps doing so.
          if (!isHarnessError(error, 'SLOT_TAKEN')) throw error;
          ctx.logger.info('the approval responder is another plugin\'s; MCP clients are not asked');
        }
      }
      ctx.hooks.execute.tap((dispatch) => (args, exec) => {
        const scope = mcpCallScope.getStore();
        return scope === undefined ? dispatch(args, exec) : dispatch(args, forClient(exec, scope));
      });
    },
  });
}

async function ask(request: ApprovalRequest, escape: EscapeText): Promise<{ decision: 'allow' | 'deny'; message?: string }> {
  const scope = mcpCallScope.getStore();
  if (scope === undefined) return { decision: 'deny', message: `${request.toolName} needs approval, and the call did not come from an MCP client that could be asked.` };
  if (scope.elicit === undefined) return { decision: 'deny', message: `${request.toolName} needs approval, and this MCP client offers no elicitation to ask for it.` };
  const shown = approvalMessage(request, escape);
  if (shown.kind === 'too-long') return { decision: 'deny', message: `${request.toolName} needs approval, and its arguments (${shown.characters} characters) are too long to be shown whole; send less.` };
  let action = await scope.elicit(shown.message, request.signal);
  // Accepting a cut message only shows the rest: what is approved is what was seen.
  if (shown.kind === 'cut' && action === 'accept') action = await scope.elicit(shown.whole.message, request.signal);
  if (action === 'accept') return { decision: 'allow' };
  return { decision: 'deny', message: action === 'decline' ? 'The user declined this call.' : 'The user dismissed the approval request.' };
}

type ProgressUpdate = { readonly progress?: number; readonly total?: number; readonly message?: string };

function forClient(exec: ToolExecution, scope: McpCallScope): ToolExecution {
  const ownProgress = (exec as { progress?: (update: ProgressUpdate) => void }).progress;
  let count = 0;
  const progress = (update: ProgressUpdate) => {
    ownProgress?.call(exec, update);
    if (scope.progressToken === undefined) return;
    // MCP needs a number that grows; an update without one counts as one more step.
    count = typeof update.progress === 'number' ? update.progress : count + 1;
    const params: Record<string, unknown> = { progressToken: scope.progressToken, progress: count };
    if (update.total !== undefined) params.total = update.total;
    if (update.message !== undefined) params.message = update.message;
    void scope.notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const forBody = { ...exec, logger: clientLogger(exec.logger, scope), progress } as ToolExecution;
  const requests = scope.requests;
  return requests === undefined ? forBody : bindMcpClient(forBody, () => requests(forBody.signal));
}

const FROM_PINO: Readonly<Record<'debug' | 'info' | 'warn' | 'error', McpLogLevel>> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };

/** A logger that writes where it did, and also sends each line at or above the client's level to the client. */
function clientLogger(logger: Logger, scope: McpCallScope): Logger {
  const line = (method: keyof typeof FROM_PINO) => (first: unknown, ...rest: unknown[]) => {
    (logger[method] as (...args: unknown[]) => void)(first, ...rest);
    const level = FROM_PINO[method];
    const wanted = scope.logLevel() ?? 'info';
    if (MCP_LOG_LEVELS.indexOf(level) < MCP_LOG_LEVELS.indexOf(wanted)) return;
    void scope.notify({ method: 'notifications/message', params: { level, logger: 'weir', data: logData(first, rest) } }).catch(() => undefined);
  };
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: (bindings) => clientLogger(logger.child(bindings), scope),
  };
}

function logData(first: unknown, rest: readonly unknown[]): unknown {
  if (typeof first === 'string') return first;
  const message = typeof rest[0] === 'string' ? rest[0] : undefined;
  if (first instanceof Error) return message === undefined ? first.message : `${message}: ${first.message}`;
  try {
    const fields = JSON.parse(JSON.stringify(first ?? null)) as unknown;
    return message === undefined ? fields : { message, ...(typeof fields === 'object' && fields !== null ? fields : { value: fields }) };
  } catch {
    return message ?? String(first);
  }
}
