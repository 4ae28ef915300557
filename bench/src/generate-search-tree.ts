import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The shape of the generated tree. */
export interface SearchTreeShape {
  readonly folders: number;
  readonly filesPerFolder: number;
  readonly linesPerFile: number;
  /** About how many lines carry the needle. */
  readonly needleLines: number;
  readonly seed: number;
}

/** The benchmark's tree: 500 folders of 100 files of 40 lines, the needle on about 300 lines. */
export const SEARCH_TREE: SearchTreeShape = Object.freeze({ folders: 500, filesPerFolder: 100, linesPerFile: 40, needleLines: 300, seed: 20_261_201 });

/** The word on the needle lines; it appears nowhere else. */
export const NEEDLE = 'quuxNeedle';

const WORDS = ['const', 'value', 'return', 'function', 'import', 'export', 'await', 'result', 'options', 'config', 'handler', 'string', 'number', 'index', 'items', 'length'];

/** A seeded generator of numbers in [0, 1), so every run writes the same tree. */
function seeded(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => (generator.next() >>> 0) / 2 ** 32;
}

/** Writes the tree under `root` (which must exist) and returns how many needle lines it wrote. */
export async function generateSearchTree(root: string, shape: SearchTreeShape = SEARCH_TREE): Promise<number> {
  const random = seeded(shape.seed);
  const totalLines = shape.folders * shape.filesPerFolder * shape.linesPerFile;
  const chance = shape.needleLines / totalLines;
  let needles = 0;
  for (let folder = 0; folder < shape.folders; folder += 1) {
    const directory = join(root, `pkg${String(folder).padStart(3, '0')}`, 'src');
    await mkdir(directory, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let file = 0; file < shape.filesPerFolder; file += 1) {
      const lines: string[] = [];
      for (let line = 0; line < shape.linesPerFile; line += 1) {
        const words = Array.from({ length: 4 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
        if (random() < chance) {
          words.splice(Math.floor(random() * words.length), 0, NEEDLE);
          needles += 1;
        }
        lines.push(`${'  '.repeat(Math.floor(random() * 3))}${words.join(' ')};`);
      }
      writes.push(writeFile(join(directory, `file${String(file).padStart(3, '0')}.ts`), `${lines.join('\n')}\n`));
    }
    await Promise.all(writes);
  }
  return needles;
}
