import type { ToolResult } from '@weir/core';

/** A result as the post hooks are told it: `tool_response` on success, `error` on failure. */
export interface ToolResponse {
  readonly failed: boolean;
  readonly value: unknown;
  readonly error: string;
  readonly interrupted: boolean;
}

/**
 * weir's `run_command` succeeds with the command's exit code (the model needs a failing build's
 * output); Claude Code's Bash fails when the command does. So a command that exited non-zero is a
 * `PostToolUseFailure` here, as it is there.
 */
export function toolResponse(toolName: string, result: ToolResult): ToolResponse {
  if (!result.ok) return { failed: true, value: undefined, error: result.content, interrupted: result.error.code === 'TIMEOUT' };
  const value = result.value as Record<string, unknown> | undefined;
  if (toolName === 'run_command' && typeof value === 'object' && value !== null && 'exitCode' in value) {
    const output = typeof value.output === 'string' ? value.output : '';
    if (value.exitCode !== 0) return { failed: true, value, error: output, interrupted: value.killed !== null && value.killed !== undefined };
    return { failed: false, value: { stdout: output, stderr: '', interrupted: false, isImage: false, exitCode: 0 }, error: '', interrupted: false };
  }
  return { failed: false, value: result.value ?? result.content, error: '', interrupted: false };
}
