import type { PermissionRule, SafetySettings } from '@weir/safety';

/** The file tools that read; a deny rule naming one of them (or `*`) with a path denies reading it. */
const READING_TOOLS = new Set(['*', 'read_file', 'grep', 'find_files', 'list_dir']);

/**
 * The path globs the settings deny for reading (`{ deny: { action: 'read', path } }`,
 * `{ deny: 'read_file', path }`), every layer: the shell masks them in its sandbox, so a command
 * cannot `cat` what the file tools may not read. Deny rules only tighten, so an untrusted
 * project's count too. Rules matching by tier, server or command name no path and are left out.
 */
export function shellHiddenPaths(settings: SafetySettings): string[] {
  const globs = new Set<string>();
  for (const layer of [settings.managed, settings.user, settings.project]) {
    for (const rule of layer.rules) for (const glob of deniedReadPaths(rule)) globs.add(glob);
  }
  return [...globs];
}

function deniedReadPaths(rule: PermissionRule): readonly string[] {
  if (!('deny' in rule)) return [];
  const target = rule.deny;
  const list = (value: string | readonly string[] | undefined) => (value === undefined ? [] : typeof value === 'string' ? [value] : [...value]);
  if (typeof target === 'string' || Array.isArray(target)) {
    return list(target as string | readonly string[]).some((tool) => READING_TOOLS.has(tool)) ? list(rule.path) : [];
  }
  const matcher = target as Exclude<typeof target, string | readonly string[]>;
  const reads = matcher.action === undefined ? matcher.tool === undefined || list(matcher.tool).some((tool) => READING_TOOLS.has(tool)) : list(matcher.action).includes('read');
  return reads ? [...list(matcher.path), ...list(rule.path)] : [];
}
