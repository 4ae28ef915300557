// No two modules need each other, in a package or across packages (STYLE.md: "no two files import
// each other"): a circle is two concepts that cannot be read, tested or bundled apart.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph, importSpecifiers, sourceFiles } from './import-graph.js';
import { repo } from './publishable-packages.js';

const packagesDir = join(repo, 'packages');

describe('import circles', () => {
  it('there is none in packages/*/src, type-only imports and imports between packages included', () => {
    const files = readdirSync(packagesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => sourceFiles(join(packagesDir, entry.name, 'src')));
    const graph = importGraph(files, packagesDir);
    expect(files.length).toBeGreaterThan(200);
    expect([...graph.values()].reduce((sum, targets) => sum + targets.length, 0)).toBeGreaterThan(files.length);
    expect(importCircles(graph, repo).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('reads every form of import and export, across lines, and skips comments', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      'import {',
      '  c,',
      '  type D,',
      "} from '../c.js';",
      "export { e } from './e.js';",
      "export * from './f.js';",
      "import './g.js';",
      "const h = await import('./h.js');",
      "// import { x } from './commented.js';",
      "/* export { y } from './block.js'; */",
      "const text = 'import nothing';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.js', './b.js', '../c.js', './e.js', './f.js', './g.js', './h.js']);
  });

  it('finds a circle of three files and a file that imports itself, and reports nothing for a chain', () => {
    const graph = new Map([
      ['/p/a.ts', ['/p/b.ts']],
      ['/p/b.ts', ['/p/c.ts', '/p/d.ts']],
      ['/p/c.ts', ['/p/a.ts']],
      ['/p/d.ts', ['/p/e.ts']],
      ['/p/e.ts', []],
      ['/p/self.ts', ['/p/self.ts']],
    ]);
    expect(importCircles(graph, '/p')).toEqual(expect.arrayContaining([['a.ts', 'b.ts', 'c.ts', 'a.ts'], ['self.ts', 'self.ts']]));
    expect(importCircles(graph, '/p')).toHaveLength(2);
    expect(importCircles(new Map([['/p/a.ts', ['/p/b.ts']], ['/p/b.ts', []]]), '/p')).toEqual([]);
  });
});
