import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { createFileSessionStore, createMemorySessionStore } from '@weir/session';
import { assertSessionStoreConformance } from '@weir/session/testing';

// Both stores of this package pass the suite store authors get from @weir/session/testing.
let clock = Date.UTC(2025, 0, 1);
const now = () => new Date((clock += 1000));

assertSessionStoreConformance('memory', () => ({ store: createMemorySessionStore({ now }) }), { describe, it });

assertSessionStoreConformance(
  'file',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-conformance-'));
    const log = (id: string) => join(dir, `${id}.jsonl`);
    return {
      store: createFileSessionStore(dir, { now }),
      // A second instance over the same directory: what another process or a restart sees.
      restart: () => createFileSessionStore(dir, { now }),
      // What a write cut short leaves: the start of the next line, no newline.
      tearAppend: (id) => appendFile(log(id), '{"v":1,"seq":99,"type":"message","at":"2025-'),
      // Damage a crash cannot explain: the second line (the first record after the session record) is garbage.
      corrupt: async (id) => {
        const lines = (await readFile(log(id), 'utf8')).split('\n');
        lines[1] = '{"not json';
        await writeFile(log(id), lines.join('\n'));
      },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
  { describe, it, simulates: ['crash-mid-append', 'damage'] },
);
