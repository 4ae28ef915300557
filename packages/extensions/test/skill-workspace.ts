// Temporary folders holding skills, written by the tests themselves.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempDir {
  readonly dir: string;
  /** Writes `text` at `path` inside the folder (parents made). */
  write(path: string, text: string): string;
  remove(): void;
}

export function tempDir(prefix = 'weir-extensions-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(path, text) {
      const file = join(dir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A SKILL.md with front matter `fields` (YAML lines) and `body`. */
export function skillMd(fields: Record<string, string>, body: string): string {
  return `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n---\n${body}\n`;
}
