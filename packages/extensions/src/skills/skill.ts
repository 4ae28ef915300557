import type { SourceLabel } from '../load-problem.js';
import type { ToolRule } from '../tool-access/tool-list.js';

/** An Agent Skill as loaded: its front matter read, its body left on disk until the model asks. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The skill's folder: the files it references are read from here, and only here. */
  readonly dir: string;
  /** Its `SKILL.md`. */
  readonly file: string;
  /** The root it was found in (`project`, `user`, `claude`, `plugin <name>`). */
  readonly source: SourceLabel;
  /** `allowed-tools`: while the skill is active in a turn only these run (the rules still decide each). */
  readonly allowedTools?: readonly ToolRule[];
  /** `disable-model-invocation: true`: left out of the model's list (a person may still run it). */
  readonly modelInvocable: boolean;
  /** The front matter as written, every key (`license`, `metadata`, `compatibility`, ...). */
  readonly frontMatter: Readonly<Record<string, unknown>>;
  /** The size of `SKILL.md`, in bytes. */
  readonly bytes: number;
}

/** The Agent Skills spec's name rule: lowercase letters, digits and single hyphens, at most 64. */
export const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
