import { readFile } from 'node:fs/promises';
import { ToolCallError } from '@weir/core';
import type { AcpEditorFiles } from './acp-host.js';

/** What the editor's file methods are reached through. */
export interface EditorFileMethods {
  /** `fs/read_text_file`: the open buffer's text (unsaved changes included) or the file's. */
  readonly read: (path: string) => Promise<string>;
  /** `fs/write_text_file`, when the client offers it: the editor's buffer gets the text. */
  readonly write: ((path: string, text: string) => Promise<void>) | undefined;
}

/**
 * The editor as the file tools' text source (`@weir/tools-fs`'s `textSource`), with the
 * `editorFiles` setting and a client that reads files for its agent: read_file and edit_file see
 * the editor's text, unsaved changes included; write_file and edit_file write through the editor
 * when it writes files for its agent. An editor that cannot write (no `fs.writeTextFile`) leaves
 * writes to the disk, except over unsaved changes, which fail with `UNSAVED_IN_EDITOR`: the disk
 * would get a text the user does not see, and their buffer would keep its own. An editor that
 * cannot answer a read (no such file, a refusal) leaves the call to the disk.
 */
export function editorTextSource(methods: EditorFileMethods): AcpEditorFiles {
  const read = (path: string) => methods.read(path).catch(() => undefined);
  return {
    read,
    write: async (path, text) => {
      if (methods.write !== undefined) {
        await methods.write(path, text);
        return true;
      }
      const [buffer, disk] = await Promise.all([read(path), readFile(path, 'utf8').catch(() => undefined)]);
      if (buffer !== undefined && disk !== undefined && buffer !== disk) {
        throw new ToolCallError(
          'UNSAVED_IN_EDITOR',
          "The file has unsaved changes in the editor, which does not let weir write its buffers, so nothing was written: the file on disk is not what the user sees. Ask the user to save or discard them, then try again.",
        );
      }
      return false;
    },
  };
}
