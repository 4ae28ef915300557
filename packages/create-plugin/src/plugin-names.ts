import { basename } from 'node:path';

/** The names one scaffolded package is made of. */
export interface PluginNames {
  /** The npm package name, e.g. `weir-tool-weather` or `@me/weir-tool-weather`. */
  readonly packageName: string;
  /** The plugin's name (also its skill's folder and `name`), e.g. `weather`. */
  readonly pluginName: string;
}

// npm's rule for new package names (lowercase, URL-safe, at most 214 characters), scope included.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// The Agent Skills rule for a skill's `name`: lowercase letters, digits and single hyphens, 1-64 characters.
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PREFIXES = ['weir-tool-', 'weir-plugin-', 'weir-'];

/**
 * The package and plugin names for a package made in `dir`: the package is named `name` when
 * given, or after the folder; the plugin is the package name without its scope and a
 * `weir-tool-`, `weir-plugin-` or `weir-` prefix. Throws an `Error` saying which rule a name
 * breaks (npm's for the package, the Agent Skills format's for the plugin, whose skill shares it).
 */
export function pluginNames(dir: string, name?: string): PluginNames {
  const packageName = name ?? basename(dir);
  if (packageName.length > 214 || !PACKAGE_NAME.test(packageName)) {
    throw new Error(`"${packageName}" is not a valid npm package name (lowercase letters, digits, - . _ ~, an optional @scope/); pass --name <package-name>.`);
  }
  const bare = packageName.replace(/^@[^/]+\//, '');
  const prefix = PREFIXES.find((candidate) => bare.startsWith(candidate) && bare.length > candidate.length);
  const pluginName = prefix === undefined ? bare : bare.slice(prefix.length);
  if (pluginName.length > 64 || !SKILL_NAME.test(pluginName)) {
    throw new Error(`the plugin name "${pluginName}" (from "${packageName}") must be lowercase letters, digits and single hyphens, at most 64 characters, as a skill's name is; pass --name <package-name>.`);
  }
  return { packageName, pluginName };
}
