import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PermissionRule } from '../rules/permission-rule.js';
import { SafetyError } from '../safety-error.js';

/**
 * Appends `rule` to `safety.rules` of the settings file `file`, keeping everything else in it:
 * read, change, write a temporary file beside it, sync, rename over (a reader sees the old file
 * or the new one, never half). Rejects with `SafetyError` `SETTINGS_WRITE_FAILED` when the file
 * cannot be read as a JSON object or written; nothing is changed then.
 */
export async function saveProjectRule(file: string, rule: PermissionRule): Promise<void> {
  let settings: Record<string, unknown> = {};
  try {
    const text = await readFile(file, 'utf8');
    if (text.trim() !== '') settings = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw failed(file, error);
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw failed(file, new Error('it does not hold a JSON object'));
  const safety = (settings.safety ?? {}) as Record<string, unknown>;
  const rules = Array.isArray(safety.rules) ? safety.rules : [];
  const next = { ...settings, safety: { ...safety, rules: [...rules, rule] } };
  const temporary = join(dirname(file), `.settings-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw failed(file, error);
  }
}

function failed(file: string, error: unknown): SafetyError {
  return new SafetyError('SETTINGS_WRITE_FAILED', `The rule could not be saved to ${file}: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
}
