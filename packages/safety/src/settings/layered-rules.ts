import type { PermissionRule } from '../rules/permission-rule.js';
import { compileRule, type CompiledRule } from '../rules/permission-rule.js';
import { morePermissive, stricterMode } from './mode-order.js';
import type { SafetySettings, SettingsLayer } from './safety-settings.js';
import type { SafetyMode } from './safety-mode.js';

/** What the layers add up to. */
export interface LayeredPolicy {
  readonly mode: SafetyMode;
  /** A locked managed mode: the run-time switch cannot go past it. */
  readonly modeCap: SafetyMode | undefined;
  readonly rules: readonly CompiledRule[];
  /** Allow rules that were left out, and why: shown by `describe()` so nobody wonders why a rule does nothing. */
  readonly ignored: readonly string[];
}

/**
 * Adds up the layers (managed, user, the program's own options, project), strictest wins:
 * - deny and ask rules of every layer always apply: they only ever tighten;
 * - allow rules apply from managed; from the user and the program unless managed is locked; from
 *   the project only when the user trusts its folder and managed is not locked (a cloned
 *   repository must not allow itself writes);
 * - the mode: managed's (unlocked) is the default, the user's overrides it, the project's overrides
 *   that when the folder is trusted or when it is stricter, the program's `mode` option overrides
 *   all; a locked managed mode is then a ceiling (the stricter of the two wins, and the run-time
 *   switch cannot pass it).
 * Rule compilation errors were caught when the settings were loaded.
 */
export function layeredPolicy(settings: SafetySettings | undefined, program: { mode: SafetyMode | undefined; rules: readonly PermissionRule[] }, where: string): LayeredPolicy {
  const ignored: string[] = [];
  const rules: CompiledRule[] = [];
  const add = (layer: string, list: readonly PermissionRule[], allowsCount: boolean, why: string) => {
    list.forEach((rule, index) => {
      const compiled = compileRule(rule, `${where}: ${layer} rules[${index}]`);
      const labelled = layer === 'program' ? compiled : Object.freeze({ ...compiled, label: `${compiled.label} (${layer} settings)` });
      if (labelled.effect === 'allow' && !allowsCount) ignored.push(`${labelled.label}: ${why}`);
      else rules.push(labelled);
    });
  };
  const locked = settings?.locked === true;
  if (settings !== undefined) add('managed', settings.managed.rules, true, '');
  if (settings !== undefined) add('user', settings.user.rules, !locked, 'the managed settings are locked');
  add('program', program.rules, !locked, 'the managed settings are locked');
  if (settings !== undefined) {
    const why = locked ? 'the managed settings are locked' : 'the project folder is not trusted';
    add('project', settings.project.rules, settings.projectTrusted && !locked, why);
  }

  let mode: SafetyMode = (!locked ? settings?.managed.mode : undefined) ?? 'ask';
  if (settings?.user.mode !== undefined) mode = settings.user.mode;
  const projectMode = settings?.project.mode;
  if (projectMode !== undefined) {
    if ((settings!.projectTrusted && !locked) || !morePermissive(projectMode, mode)) mode = projectMode;
    else ignored.push(`the project's mode "${projectMode}": ${locked ? 'the managed settings are locked' : 'the project folder is not trusted'}`);
  }
  if (program.mode !== undefined) mode = program.mode;
  const modeCap = locked ? settings?.managed.mode : undefined;
  if (modeCap !== undefined) mode = stricterMode(mode, modeCap);
  return { mode, modeCap, rules, ignored };
}

/** The layer an "allow always" rule is saved to, when one can be: a trusted project, not locked. */
export function saveTarget(settings: SafetySettings | undefined): SettingsLayer | undefined {
  if (settings === undefined || settings.projectRoot === undefined || !settings.projectTrusted || settings.locked) return undefined;
  return settings.project;
}
