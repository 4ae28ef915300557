import { definePlugin, type Plugin } from '@weir/core';
import type { ToolNarrowing } from '../tool-access/narrowing.js';
import { skillTool } from './skill-tool.js';
import type { Skill } from './skill.js';

/** Options of `skillsPlugin`. */
export interface SkillsPluginOptions {
  readonly skills: readonly Skill[];
  /** Shared with commands (`allowed-tools` of both); use its `plugin` in the same harness. */
  readonly narrowing: ToolNarrowing;
}

/**
 * The plugin `skills`: registers the `skill` tool when any skill may be invoked by the model (none
 * otherwise). Put `skillsSection(skills)` in the system prompt: the model learns the names there.
 */
export function skillsPlugin(options: SkillsPluginOptions): Plugin {
  const invocable = options.skills.filter((skill) => skill.modelInvocable);
  return definePlugin({
    name: 'skills',
    setup(ctx) {
      if (invocable.length > 0) ctx.tools.register(skillTool(invocable, options.narrowing));
    },
  });
}
