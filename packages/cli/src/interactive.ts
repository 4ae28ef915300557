import type { CliFlags } from './cli-flags.js';
import { UsageError } from './usage-error.js';

/** The interactive session: not in this version yet. */
export async function runInteractive(_flags: CliFlags, _env: NodeJS.ProcessEnv): Promise<number> {
  throw new UsageError('The interactive session is not in this version yet: use weir run "<prompt>".');
}
