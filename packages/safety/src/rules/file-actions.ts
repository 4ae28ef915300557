import type { FileAction } from '@weir/core';

export type { FileAction };

/** The actions, in the order a person reads them. */
export const FILE_ACTIONS: readonly FileAction[] = Object.freeze(['read', 'list', 'write', 'edit', 'delete']);

/**
 * What a rule's `action` covers. `read` is everything that observes the file system (reading
 * content, and listing names: names can be secret too); `edit` is every change (write, edit,
 * delete), as in Claude Code's Edit rules; `list`, `write` and `delete` are exactly themselves.
 */
const COVERS: Readonly<Record<FileAction, readonly FileAction[]>> = Object.freeze({
  read: ['read', 'list'],
  list: ['list'],
  write: ['write'],
  edit: ['write', 'edit', 'delete'],
  delete: ['delete'],
});

/** True when a rule naming `ruleAction` covers a tool that performs `toolAction`. */
export function actionCovers(ruleAction: FileAction, toolAction: FileAction): boolean {
  return COVERS[ruleAction].includes(toolAction);
}

/** True when `value` names an action. */
export function isFileAction(value: unknown): value is FileAction {
  return typeof value === 'string' && (FILE_ACTIONS as readonly string[]).includes(value);
}

/** True for the actions that change files. */
export function changesFiles(action: FileAction): boolean {
  return action === 'write' || action === 'edit' || action === 'delete';
}
