import type { CliFlags } from './cli-flags.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { trustFolder } from './trust-folder.js';
import { userSettingsFile } from './weir-home.js';

/**
 * `weir trust [<folder>]`: trusts a folder (default: the workspace) for good, as answering yes in an
 * interactive session does: its `weir.config.json` (plugins, MCP servers) loads and its
 * `.weir/settings.json` may relax the user's rules. Resolves to the exit status.
 */
export async function trustCommand(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const folder = await resolveWorkspace(flags.positionals[0] ?? flags.workspace);
  const file = userSettingsFile(env);
  const trusted = await trustFolder(file, folder);
  process.stdout.write(`Trusted ${trusted} (saved in ${file}). Its weir.config.json and .weir/settings.json now apply.\n`);
  return 0;
}
