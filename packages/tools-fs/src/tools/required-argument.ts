import { ToolCallError } from '@weir/core';

/**
 * A required argument. The schemas leave `path`, `old_string` and `new_string` optional so that
 * their aliases (`file_path`, `oldString`...) pass validation before the stage-1 rewrite to the
 * canonical names; after it, a call without the argument under either name is refused here with
 * the name to use. Throws `ToolCallError('INVALID_ARGUMENTS')`.
 */
export function requiredArgument<T>(value: T | undefined, name: string, toolName: string, example: string): T {
  if (value === undefined) throw new ToolCallError('INVALID_ARGUMENTS', `${toolName} needs ${name}, for example ${example}.`);
  return value;
}
