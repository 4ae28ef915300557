import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness } from '@weir/core';
import { safety } from '@weir/safety';
import { fsTools } from '@weir/tools-fs';
import { expect, it } from 'vitest';

it('a deny on .env holds for tools-fs calls that name it file_path (aliases are rewritten before the guards)', async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'weir-alias-')));
  const harness = createHarness();
  try {
    await writeFile(join(root, '.env'), 'SECRET=1\n');
    await harness.use(fsTools({ root, write: true }));
    await harness.use(safety({ mode: 'allow-all-unsafe', rules: [{ deny: ['write_file', 'edit_file'], path: '.env' }] }));
    for (const call of [
      { id: '1', name: 'write_file', arguments: { file_path: '.env', content: 'STOLEN=1\n' } },
      { id: '2', name: 'edit_file', arguments: { file_path: './.env', oldString: 'SECRET', newString: 'X' } },
    ]) {
      const result = await harness.executeToolCall(call);
      expect(result.ok ? undefined : result.error.code, call.name).toBe('DENIED');
    }
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('SECRET=1\n');
  } finally {
    await harness.close();
    await rm(root, { recursive: true, force: true });
  }
});
