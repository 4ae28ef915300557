import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Every `import`/`export ... from` and `import()` of a module, type-only ones included (a circle
 * of types is still two concepts that need each other). Reads text, so it costs a regex pass per
 * file rather than a TypeScript program: the whole of packages/ in well under a second.
 */
const specifierPattern = /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;}(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The module specifiers `source` imports, in order, comments removed first. Pure. */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const specifiers: string[] = [];
  for (const match of code.matchAll(specifierPattern)) specifiers.push(match[1] ?? match[2] ?? match[3]!);
  return specifiers;
}

/** The `.ts` files under `dir`, tests and declaration files left out (they are not the package's graph). */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    if (/\.test(-d)?\.ts$|\.d\.ts$/.test(entry.name)) continue;
    files.push(join(entry.parentPath, entry.name));
  }
  return files.sort();
}

/**
 * The import graph of `files`: each file to the files it imports among them. A relative `./x.js`
 * names `./x.ts`; a bare `@weir/<pkg>` names that package's `src/index.ts` (when `packagesDir` is
 * given), so a circle through two packages counts too. Other imports are outside the graph.
 */
export function importGraph(files: readonly string[], packagesDir?: string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier, packagesDir);
      if (target !== undefined && known.has(target) && !targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

function resolveSpecifier(file: string, specifier: string, packagesDir: string | undefined): string | undefined {
  if (specifier.startsWith('.')) return join(dirname(file), specifier).replace(/\.js$/, '.ts');
  const own = /^@weir\/([^/]+)$/.exec(specifier);
  if (own !== null && packagesDir !== undefined) return join(packagesDir, own[1]!, 'src', 'index.ts');
  return undefined;
}

/**
 * The import circles of `graph`, one per strongly connected component of more than one file (or a
 * file importing itself), each as a path that starts and ends at the same file, named relative to
 * `base`. Tarjan's algorithm, iterative: linear in files plus imports. Pure.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>, base: string): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
    }
  }
  return components.map((component) => circleThrough(graph, new Set(component)).map((file) => relative(base, file)));
}

/** One circle inside a strongly connected component: a shortest path back to its first file. */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string[] {
  const first = [...members].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === first) {
        const path = [first];
        for (let step: string | undefined = node; step !== undefined && step !== first; step = cameFrom.get(step)) path.unshift(step);
        path.unshift(first);
        return path;
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}
