import { readFile } from 'node:fs/promises';
import { definePlugin, ToolCallError, type Plugin } from '@weir/core';
import { toolCallView } from './tool-call-view.js';

/** The file tools whose file may be open, with unsaved changes, in the editor. */
const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file']);

/**
 * With the `editorFiles` setting and a client that reads files for its agent (`fs.readTextFile`):
 * before weir's own file tool body runs (after the guards and the approval, so still behind
 * weir's stages), the editor is asked for the file's text (`fs/read_text_file` answers with an
 * open buffer's text, unsaved changes included). When it differs from the file on disk, the call
 * fails with `UNSAVED_IN_EDITOR`: the model would otherwise read a text the user no longer sees,
 * or write over their unsaved work. An editor that cannot answer (no such file, a refusal) lets
 * the call run as it would without the setting. `readBuffer` returns `undefined` then.
 */
export function unsavedBuffers(cwd: string, readBuffer: (path: string) => Promise<string | undefined>): Plugin {
  return definePlugin({
    name: 'acp-unsaved-buffers',
    setup(ctx) {
      ctx.hooks.execute.tap((dispatch, context) => {
        if (!FILE_TOOLS.has(context.toolName)) return undefined;
        return async (args, exec) => {
          const path = toolCallView(context.toolName, args, cwd).locations[0]?.path;
          if (path !== undefined) {
            const [buffer, disk] = await Promise.all([readBuffer(path), readFile(path, 'utf8').catch(() => undefined)]);
            if (buffer !== undefined && disk !== undefined && buffer !== disk) {
              throw new ToolCallError(
                'UNSAVED_IN_EDITOR',
                `${String(args.path ?? args.file_path)} has unsaved changes in the editor, so ${context.toolName} did not run: the file on disk is not what the user sees. Ask the user to save or discard them, then try again.`,
              );
            }
          }
          return dispatch(args, exec);
        };
      });
    },
  });
}
