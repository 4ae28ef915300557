import type { GuardCall } from '@weir/core';
import { isFileAction, type FileAction } from './file-actions.js';
import type { DeclaredFiles } from './path-arguments.js';

/**
 * What the registry tells a guard about a call's tool beyond its name and tier: the file action
 * and path arguments the tool declares (`defineTool({ files })`), and where the tool comes from
 * (`source.server`, for a tool a plugin brought from an MCP server or another registry). Read
 * defensively: a malformed declaration is no declaration (the tool is judged by its tier).
 */
export interface ToolFacts {
  readonly files: DeclaredFiles | undefined;
  readonly action: FileAction | undefined;
  readonly server: string | undefined;
}

export function toolFactsOf(call: GuardCall): ToolFacts {
  const extra = call as GuardCall & { readonly files?: unknown; readonly source?: unknown };
  const files = declaredFiles(extra.files);
  const source = extra.source as { readonly server?: unknown } | undefined;
  const server = typeof source === 'object' && source !== null && typeof source.server === 'string' ? source.server : undefined;
  return { files, action: files?.action, server };
}

function declaredFiles(value: unknown): DeclaredFiles | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, paths } = value as { action?: unknown; paths?: unknown };
  if (!isFileAction(action) || !Array.isArray(paths)) return undefined;
  return { action, paths: paths as DeclaredFiles['paths'] };
}
