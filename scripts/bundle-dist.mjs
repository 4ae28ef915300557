// A package's build step after tsc, run in the package's folder: its entry points (the `default`
// targets of its exports) become a few bundled files, the modules they share split into chunks
// (one copy of each class, so `instanceof` holds across entries), so importing a package reads a
// handful of files instead of dozens: about half the cold-start time on Node 20, whose ESM loader
// costs about a millisecond per module on a small machine. Every other package, first-party ones
// included, stays external, so their lazy imports stay lazy. The declaration files tsc wrote are
// kept; its per-module JavaScript and maps are removed. Chunks sit in dist/ itself, so a path a
// module makes from `import.meta.url` (`../package.json`) means what it meant.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const packageDir = process.cwd();
const dist = join(packageDir, 'dist');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const entryPoints = Object.values(manifest.exports)
  .map((target) => (typeof target === 'object' ? target.default : undefined))
  .filter((path) => typeof path === 'string' && path.endsWith('.js'))
  .map((path) => join(packageDir, path));

const result = await build({
  entryPoints,
  outdir: dist,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  allowOverwrite: true,
  metafile: true,
  logLevel: 'warning',
});

// What the bundle wrote stays; the per-module output it was made from goes.
const written = new Set(Object.keys(result.metafile.outputs).map((path) => join(process.cwd(), path)));
for (const file of walk(dist)) {
  if ((file.endsWith('.js') || file.endsWith('.js.map')) && !written.has(file)) rmSync(file);
}
console.log(`bundle-dist: ${entryPoints.length} entries, ${[...written].filter((file) => file.endsWith('.js')).length} files (${relative(packageDir, dist)})`);

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
