import type { AcpHost } from '@weir/acp';
import { chooseModel, type ChosenModel } from './choose-model.js';
import type { CliFlags } from './cli-flags.js';
import { cliLogger } from './cli-logger.js';
import { chooseWeirModel, readConfiguredModel } from './configured-model.js';
import { hookedTurn } from './hooked-turn.js';
import { modelWaits } from './model-waits.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { oneLineError } from './one-line-error.js';
import { startWeir } from './start-weir.js';
import { UsageError } from './usage-error.js';

/**
 * `weir acp`: weir as an Agent Client Protocol agent on standard input and output, for an editor
 * to start (Zed, JetBrains IDEs). Each ACP session is a weir session started as `weir run` starts
 * one: the model from the flags, the config (a session's folder's `"model"`, once trusted) and the environment, the safety settings and the config of the
 * session's `cwd` (a project's config only once the folder is trusted: nothing is asked, there is
 * no terminal), its session store; every `ask` goes to the editor. Standard output carries only
 * protocol messages; status lines go to standard error. Resolves to 0 once the editor is gone.
 */
export async function runAcp(flags: CliFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const status = (line: string) => process.stderr.write(`${line}\n`);
  const waits = modelWaits(status);
  // A provider set up in part is the editor's "authentication required", not a server that exits:
  // the editor shows the line, and the user sets the key in its settings' env.
  let model: ChosenModel | undefined;
  let authRequired: string | undefined;
  try {
    model = chooseModel({ model: flags.model, baseURL: flags.baseURL, env, onRetry: waits.onRetry });
    status(`[model] ${model.description}`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    authRequired = oneLineError(error);
    status(`[model] ${authRequired}`);
  }
  const { serveAcpOnStdio, AcpAuthRequiredError } = await import('@weir/acp');
  const { readFileSync } = await import('node:fs');
  const ownVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const host: AcpHost = {
    say: status,
    ...(authRequired === undefined ? {} : { authRequired }),
    open: async ({ cwd, sessionId, approver, editorFiles }) => {
      const workspace = await resolveWorkspace(cwd);
      // The config's "model" (the session folder's, once trusted) is this session's model, unless --model names one.
      const configured = flags.model === undefined ? await readConfiguredModel({ workspace, configFlag: flags.config, env }) : undefined;
      // A folder whose config names a model runs even when the process's own model is set up in part.
      let sessionModel = model;
      if (configured !== undefined) {
        try {
          sessionModel = chooseWeirModel({ flags, configured, env, onRetry: waits.onRetry });
        } catch (error) {
          if (error instanceof UsageError) throw new AcpAuthRequiredError(oneLineError(error));
          throw error;
        }
      }
      if (sessionModel === undefined) throw new AcpAuthRequiredError(authRequired ?? 'no model is set up');
      if (sessionModel !== model) status(`[model] ${sessionModel.description} in ${workspace}`);
      const started = await startWeir({
        workspace,
        model: sessionModel,
        configFlag: flags.config,
        mode: flags.mode,
        noShell: flags.noShell,
        approver,
        ...(editorFiles === undefined ? {} : { textSource: editorFiles }),
        logger: cliLogger(status, flags.debug),
        session: { continue: false, resume: sessionId },
        env,
        say: status,
      });
      status(`[session] ${started.session.id} ${started.resumed ? 'loaded' : 'new'} in ${workspace}`);
      return {
        id: started.session.id,
        get agent() {
          return started.agent;
        },
        harness: started.composed.harness,
        // Hooks see the prompt's text; a prompt with attachments goes to the agent whole.
        turn: async (content, options) => {
          const result = await hookedTurn(started, content, options, status);
          return 'blocked' in result ? { refused: `The prompt was blocked by a hook: ${result.blocked}` } : result;
        },
        close: () => started.close().catch(() => undefined),
      };
    },
  };
  const permissionMs = env.WEIR_ACP_PERMISSION_TIMEOUT_MS === undefined ? undefined : Number(env.WEIR_ACP_PERMISSION_TIMEOUT_MS);
  const permissionTimeoutMs = permissionMs !== undefined && Number.isFinite(permissionMs) && permissionMs > 0 ? permissionMs : undefined;
  // WEIR_ACP_EDITOR_FILES=1: the file tools read the editor's buffers and write through the editor (docs/acp.md).
  await serveAcpOnStdio(host, { name: 'weir', version: ownVersion }, permissionTimeoutMs, { editorFiles: env.WEIR_ACP_EDITOR_FILES === '1' }).closed;
  return 0;
}
