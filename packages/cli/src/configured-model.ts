import { basename, resolve } from 'node:path';
import type { RetryEvent } from '@weir/core';
import { chooseModel, type ChosenModel } from './choose-model.js';
import { configModel, refuseEndpointKeys } from './config-model-key.js';
import { fileExists } from './file-exists.js';
import { untrustedProjectFiles } from './project-trust.js';
import { projectConfigFile, readConfigJson } from './weir-config.js';
import { userSettingsFile } from './weir-home.js';

/** The config's `"model"` where weir took it from: the file, and its name for the `[model]` line. */
export interface ConfiguredModel {
  /** `<provider>:<id>`, checked. */
  readonly model: string;
  readonly file: string;
  /** `weir.config.json` for the project's file, the path given for `--config`. */
  readonly label: string;
}

/**
 * The config's `"model"`, read before the harness loads so the `[model]` line can name it: from
 * `--config` (which must exist), else from the workspace's `weir.config.json` once the folder is
 * trusted (`trusted`, or the user's `trustedFolders` as `startWeir` decides). Nothing for an untrusted
 * project: its config is not used, and `startWeir` says so. Only `"model"` (and keys that would hold
 * a secret) are checked here; the rest of the file when the harness reads it.
 */
export async function readConfiguredModel(options: { readonly workspace: string; readonly configFlag: string | undefined; readonly env: NodeJS.ProcessEnv; readonly trusted?: boolean }): Promise<ConfiguredModel | undefined> {
  let file: string;
  let label: string;
  if (options.configFlag !== undefined) {
    file = resolve(options.configFlag);
    label = options.configFlag;
  } else {
    file = projectConfigFile(options.workspace);
    label = basename(file);
    if (!(await fileExists(file))) return undefined;
    const trusted = options.trusted ?? (await untrustedProjectFiles(options.workspace, userSettingsFile(options.env))).length === 0;
    if (!trusted) return undefined;
  }
  const parsed = await readConfigJson(file, options.configFlag !== undefined);
  if (parsed === undefined || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  const record = parsed.value as Record<string, unknown>;
  refuseEndpointKeys(record, '', file);
  const model = configModel(record, file);
  return model === undefined ? undefined : { model, file, label };
}

/**
 * The model weir uses: `--model` wins over the config's `"model"`, which wins over the
 * environment's choice (`ANTHROPIC_MODEL`...). The key and endpoint come from the environment (and
 * `--base-url`) whichever names the model, so a provider without its key is `chooseModel`'s
 * "set only in part" error, naming the config. The `[model]` words say where the model came from.
 */
export function chooseWeirModel(options: {
  readonly flags: { readonly model: string | undefined; readonly baseURL: string | undefined };
  readonly configured: ConfiguredModel | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly onRetry?: (event: RetryEvent) => void;
}): ChosenModel {
  const { flags, configured, env, onRetry } = options;
  const retry = onRetry === undefined ? {} : { onRetry };
  if (configured === undefined || flags.model !== undefined) {
    const chosen = chooseModel({ model: flags.model, baseURL: flags.baseURL, env, ...retry });
    if (configured === undefined) return chosen;
    return { ...chosen, description: `${chosen.description} (--model wins over ${configured.label}'s "model": ${configured.model})` };
  }
  const chosen = chooseModel({ model: configured.model, modelFrom: `${configured.label} "model"`, baseURL: flags.baseURL, env, ...retry });
  return { ...chosen, description: `${chosen.description} (from ${configured.label})` };
}

