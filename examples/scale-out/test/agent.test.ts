import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

it('runs an agent whose file tools execute on a worker process (its own redis-server)', async () => {
  const env = { ...process.env };
  delete env.REDIS_URL;
  const { stdout } = await promisify(execFile)(tsx, ['--conditions=@weir/source', 'examples/scale-out/agent.ts'], { cwd: repo, env, timeout: 90_000 });
  expect(stdout).toMatch(/\[worker\] pid \d+ listens on queue "fs-tools"/);
  expect(stdout).toContain('[tool:list_dir on the worker] -> notes.txt');
  // The agent's own copy of the tools points at an empty folder: this text can only come from the worker.
  // read_file numbers its lines (cat -n).
  expect(stdout).toMatch(/\[tool:read_file on the worker\] -> +1\tThe worker read this file/);
  expect(stdout).toContain('[tool:read_file on the worker] -> ERR NOT_FOUND');
}, 120_000);
