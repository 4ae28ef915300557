import type { SourceLabel } from '../load-problem.js';
import type { ToolRule } from '../tool-access/tool-list.js';

/** A slash command read from a markdown file. */
export interface Command {
  /** Without the slash: the file's name, a sub-folder's name before it (`frontend:component`). */
  readonly name: string;
  /** `description`, or the body's first line. */
  readonly description: string;
  /** `argument-hint`: shown in `/help` after the name. */
  readonly argumentHint?: string;
  /** `allowed-tools`: the turn the command starts runs only these (the rules still decide each). */
  readonly allowedTools?: readonly ToolRule[];
  /** `model`, as written (`sonnet`, `claude-3-5-haiku-20241022`): the harness decides what it can honour. */
  readonly model?: string;
  /** The prompt template: `$ARGUMENTS`, `$1`...`$9`. */
  readonly body: string;
  readonly file: string;
  readonly source: SourceLabel;
  readonly bytes: number;
  /** The front matter as written. */
  readonly frontMatter: Readonly<Record<string, unknown>>;
}
