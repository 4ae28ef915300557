import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `root` (tests included), as paths relative to `root`. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(relative(root, path));
    }
  };
  walk(root);
  return files.sort();
}

/**
 * The files each file imports, relative imports only, resolved to files under `root`. Every form
 * counts: `import`, `import type`, `export ... from`, `export type ... from`, `import()`: a type-only
 * import ties two files together as surely as a value import does (a reader must read both).
 */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('./') || name.startsWith('../'))
      .map((name) => resolveImport(root, file, name));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

function resolveImport(root: string, from: string, specifier: string): string {
  const absolute = resolve(root, dirname(from), specifier);
  const candidates = [absolute.replace(/\.js$/, '.ts'), absolute, `${absolute}.ts`, join(absolute, 'index.ts')];
  const found = candidates.find((candidate) => existsSync(candidate) && candidate.endsWith('.ts'));
  if (found === undefined) throw new Error(`${from}: cannot resolve import '${specifier}'`);
  return relative(root, found);
}

/** Every import circle of the graph, each as the files along it (the first repeated at the end). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      const seen = state.get(target);
      if (seen === 'open') cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (seen === undefined) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}
