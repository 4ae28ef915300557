/** Where a `hooks` section was read from, as `commandHooks` takes it. */
export interface HookLayer {
  /** Which layer: `managed`, `user`, `project`, `claude-user`, `claude-project`, `claude-local`, or a bundle's name. */
  readonly name: string;
  /** The settings file, named in every result and log line about its hooks. */
  readonly file: string;
  /** The layer's `hooks` value, unchanged (checked by `commandHooks`). */
  readonly hooks: unknown;
  /**
   * Whether its hooks may run. A project's hooks are arbitrary commands from a folder the user may
   * just have cloned: they run only once the user trusts the folder. Untrusted hooks are listed.
   */
  readonly trusted: boolean;
  /** For a plugin bundle's `hooks/hooks.json`: its folder, given to the hooks as `CLAUDE_PLUGIN_ROOT`. */
  readonly pluginRoot?: string;
}
