import { definePlugin, type Plugin } from '@weir/core';
import type { CheckpointRecorder } from './checkpoint-recorder.js';
import { declaredPaths } from './declared-paths.js';
import type { FileState } from './file-state.js';
import { withWriteWitness } from './write-witness.js';

/** What the plugin needs to snapshot around a shell command (see shell-snapshot.ts). */
export interface CommandSnapshots {
  before(turn: number): Promise<void>;
  after(turn: number): Promise<void>;
  /** Paths a tool wrote: the snapshot takes them again before the next command. */
  touched(paths: readonly string[]): void;
}

/** File actions that change what a path holds. */
const CHANGES = new Set(['write', 'edit', 'delete']);

/**
 * The plugin named `checkpoints`: an execute-stage wrapper around every call that may change files.
 * A tool that declares `files` with a changing action (write, edit, delete) gets the prior state of
 * each declared path kept before its body runs and the state it left recorded after; any other
 * tool that is not read-only (a shell command) gets the workspace snapshot around it, when
 * `commands` is given. Read-only tools are not wrapped at all. At the end of each turn the
 * checkpoint is made durable.
 */
export function checkpointsPlugin(recorder: CheckpointRecorder, commands: CommandSnapshots | undefined): Plugin {
  return definePlugin({
    name: 'checkpoints',
    setup(ctx) {
      ctx.hooks.execute.tap((dispatch, context) => {
        const tool = context.tool;
        if (tool === undefined || tool.tier === 'read-only') return undefined;
        const files = tool.files;
        if (files !== undefined) {
          if (!CHANGES.has(files.action)) return undefined;
          return async (args, exec) => {
            const turn = recorder.turnOf(exec.run.id);
            const paths = await recorder.before(turn, declaredPaths(args, files.paths));
            // What the tool says it wrote is the state after: no read back (tools-fs's own tools say it).
            const wrote = new Map<string, FileState>();
            try {
              return await dispatch(args, withWriteWitness(exec, (path, state) => wrote.set(path, state)));
            } finally {
              await recorder.after(turn, paths, wrote);
              commands?.touched(paths);
            }
          };
        }
        if (commands === undefined) return undefined;
        return async (args, exec) => {
          const turn = recorder.turnOf(exec.run.id);
          await commands.before(turn);
          try {
            return await dispatch(args, exec);
          } finally {
            await commands.after(turn);
          }
        };
      });
      ctx.hooks.turn.tap((event) => {
        if (event.type !== 'turn-end' && event.type !== 'turn-error') return;
        recorder.sync().catch((error: unknown) => ctx.logger.warn({ err: error }, 'checkpoints: the turn\'s checkpoint could not be made durable'));
      });
    },
  });
}
