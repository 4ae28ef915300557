import type { PluginNames } from '../plugin-names.js';

/** The versions a scaffolded package starts with: the weir release this scaffolder belongs to. */
export interface TemplateVersions {
  /** The `@weir/core` range for development, e.g. `^0.1.0`. */
  readonly weirCore: string;
}

/**
 * The scaffolded `package.json`: an ES module package whose default export is the plugin factory,
 * with a `weir` field naming its parts (the tool module and the skills folder), so `weir plugin
 * add` finds them, and the scripts to build, test and release it.
 */
export function packageManifest(names: PluginNames, versions: TemplateVersions): string {
  const manifest = {
    name: names.packageName,
    version: '0.0.0',
    description: `A weir plugin: the ${names.pluginName} tool and its skill`,
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    keywords: ['weir', 'weir-plugin'],
    files: ['dist', '!dist/**/*.test.*', 'skills'],
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    weir: { tools: './dist/index.js', skills: './skills' },
    scripts: {
      build: 'tsc -p tsconfig.json',
      test: 'tsc -p tsconfig.json && node --test dist/index.test.js',
      changeset: 'changeset',
      release: 'npm run build && changeset publish',
    },
    peerDependencies: { '@weir/core': '>=0.1.0 <1' },
    devDependencies: {
      '@changesets/cli': '^3.0.3',
      '@types/node': '^20.19.0',
      '@weir/core': versions.weirCore,
      typescript: '^5.9.3',
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The scaffolded `tsconfig.json`: strict, Node's ES module resolution, declarations for the types export. */
export function typescriptConfig(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noUncheckedIndexedAccess: true,
      declaration: true,
      types: ['node'],
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
