import type { RewindReport } from '@weir/tools-fs';
import type { CliFlags } from './cli-flags.js';
import { resolveWorkspace } from './resolve-workspace.js';
import { checkpointsDir, workspaceSessions } from './session-store.js';

/**
 * `weir rewind <session> --turn N [--files] [--conversation] [--force]` and `--redo`: opens the
 * session (its lock, and the end of a rewind a killed process left), rewinds or redoes, and prints
 * what changed and what was left. Resolves to the exit status (1 when files were left as conflicts).
 */
export async function rewindCommand(flags: CliFlags): Promise<number> {
  const workspace = await resolveWorkspace(flags.workspace);
  const id = flags.positionals[0]!;
  const store = await workspaceSessions(workspace);
  const session = await store.open(id);
  try {
    const { openCheckpoints } = await import('@weir/tools-fs');
    const checkpoints = await openCheckpoints({ root: workspace, dir: checkpointsDir(workspace, id), session });
    try {
      if (checkpoints.recovered !== undefined) print('[rewind] finished an interrupted rewind first:', checkpoints.recovered);
      const { files, conversation, turn, redo, force } = flags.rewind;
      const scope = files === conversation ? 'both' : files ? 'files' : 'conversation';
      const report = redo ? await checkpoints.redo({ force }) : await checkpoints.rewind({ toTurn: turn!, scope, force });
      print(redo ? '[redo]' : '[rewind]', report);
      return report.conflicts.length > 0 ? 1 : 0;
    } finally {
      await checkpoints.close();
    }
  } finally {
    await session.close();
  }
}

function print(head: string, report: RewindReport): void {
  process.stdout.write(`${describeRewind(head, report).join('\n')}\n`);
}

/** The lines that say what a rewind or redo did. */
export function describeRewind(head: string, report: RewindReport): string[] {
  const lines = [
    `${head} ${report.kind === 'redo' ? 'back to the state before the rewind' : `back to the end of turn ${report.toTurn}`}: ${report.files.length} file${report.files.length === 1 ? '' : 's'} set back${report.conversation ? (report.kind === 'redo' ? ', the conversation put back' : ', the conversation cut') : ''}`,
  ];
  for (const path of report.files) lines.push(`  ${path}`);
  for (const conflict of report.conflicts) lines.push(`  left ${conflict.path}: ${conflict.reason}`);
  return lines;
}
