import type { ToolArguments, ToolTier } from '@weir/core';
import type { FileAction } from './file-actions.js';
import type { PathArgument } from './path-arguments.js';

/** A call as a rule sees it: what the tool is, what it declares, and its paths. */
export interface RuleSubject {
  readonly toolName: string;
  readonly tier: ToolTier;
  /**
   * The file action the tool declares (`read`, `list`, `write`, `edit`, `delete`); `undefined`
   * when it declares none (a tool that does not say what it does with files).
   */
  readonly action: FileAction | undefined;
  /** The server a tool brought from elsewhere comes from (an MCP server's name); `undefined` for a tool of the plugin's own. */
  readonly server: string | undefined;
  readonly paths: readonly PathArgument[];
  /** The validated, final arguments: what a key such as `command` reads. */
  readonly arguments: ToolArguments;
}
