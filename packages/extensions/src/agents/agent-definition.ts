import type { SourceLabel } from '../load-problem.js';

/** A subagent read from a markdown file: its front matter, and its body as the system prompt. */
export interface AgentDefinition {
  readonly name: string;
  /** What the parent model reads to decide when to delegate. */
  readonly description: string;
  /** `tools`: weir tool names the subagent may use (Claude Code's names mapped); absent: every tool of the harness. */
  readonly tools?: readonly string[];
  /** `model`, as written (`sonnet`, `inherit`): the harness decides what it can honour. */
  readonly model?: string;
  /** The body: the subagent's system prompt. */
  readonly system: string;
  readonly file: string;
  readonly source: SourceLabel;
  readonly bytes: number;
  readonly frontMatter: Readonly<Record<string, unknown>>;
}
