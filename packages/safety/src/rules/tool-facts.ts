import type { GuardCall } from '@weir/core';
import type { FileAction } from './file-actions.js';
import type { DeclaredFiles } from './path-arguments.js';

/**
 * What the registry tells a guard about a call's tool beyond its name and tier: the file action
 * and path arguments the tool declares (`defineTool({ files })`, checked at registration), and
 * where the tool comes from (`source.server`, for a tool a plugin brought from an MCP server or
 * another registry).
 */
export interface ToolFacts {
  readonly files: DeclaredFiles | undefined;
  readonly action: FileAction | undefined;
  readonly server: string | undefined;
}

export function toolFactsOf(call: GuardCall): ToolFacts {
  return { files: call.files, action: call.files?.action, server: call.source?.server };
}
