export { main, USAGE } from './main.js';
export { pluginNames } from './plugin-names.js';
export type { PluginNames } from './plugin-names.js';
export { scaffoldPlugin } from './scaffold-plugin.js';
export type { ScaffoldOptions, ScaffoldResult } from './scaffold-plugin.js';
export type { TemplateVersions } from './templates/package-manifest.js';
