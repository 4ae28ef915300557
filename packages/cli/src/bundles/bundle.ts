import type { McpServerOptions } from '@weir/mcp';

/** Where a bundle's parts are described: its package.json `weir` field, or a Claude Code plugin manifest. */
export type BundleFormat = 'weir' | 'claude';

/** One `hooks` section of a bundle, as `@weir/hooks` takes it (the file names it in every message). */
export interface BundleHooks {
  readonly file: string;
  readonly hooks: unknown;
}

/**
 * A plugin bundle, read: every part it ships, as absolute paths inside its folder. Reading runs
 * nothing; `loadBundle` registers the parts.
 */
export interface Bundle {
  readonly name: string;
  readonly version: string | undefined;
  readonly description: string | undefined;
  /** The bundle's folder (`CLAUDE_PLUGIN_ROOT` for its hooks and servers). */
  readonly root: string;
  readonly format: BundleFormat;
  /** The file that described it: `package.json` or `.claude-plugin/plugin.json`. */
  readonly manifestFile: string;
  /** Modules whose default export is a weir plugin factory (the `weir` field's `tools`). */
  readonly tools: readonly string[];
  /** Folders of skill folders (each holding a `SKILL.md`). */
  readonly skills: readonly string[];
  /** Folders of command markdown files, or single files. */
  readonly commands: readonly string[];
  /** Folders of agent markdown files, or single files. */
  readonly agents: readonly string[];
  readonly hooks: readonly BundleHooks[];
  readonly mcpServers: readonly McpServerOptions[];
}
