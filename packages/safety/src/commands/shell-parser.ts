import { createRequire } from 'node:module';
import type { Parser } from 'web-tree-sitter';

/** The part of a tree-sitter node the command analysis reads. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly hasError: boolean;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
}

/** What `parseShell` gives: the reader's answer, or why there is no tree. */
export type ShellParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/**
 * Loads tree-sitter-bash (the grammar OpenAI's Codex CLI also parses commands with), run as
 * WebAssembly: no native build. Once, on the first call; later calls share it. Rejects when it
 * cannot load (and the next call tries again).
 */
export function loadShellParser(): Promise<void> {
  loading ??= loadParser().then(
    (parser) => (loaded = parser),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading.then(() => undefined);
}

/**
 * Parses bash with the loaded parser, synchronously. `read` gets the root node; the tree is
 * freed when it returns (nodes must not escape it). A parser not loaded yet, or a source that
 * does not parse, is `{ ok: false, reason }`, and the caller asks. Never throws.
 */
export function parseShellSync<T>(source: string, read: (root: SyntaxNode) => T): ShellParse<T> {
  if (loaded === undefined) return { ok: false, reason: 'the shell parser has not loaded' };
  const tree = loaded.parse(source);
  if (tree === null) return { ok: false, reason: 'the shell parser gave no tree' };
  try {
    const root = tree.rootNode as unknown as SyntaxNode;
    // tree-sitter recovers from errors with ERROR and missing nodes; a recovered tree is not the command bash runs.
    if (root.hasError) return { ok: false, reason: 'the command does not parse as bash' };
    return { ok: true, value: read(root) };
  } finally {
    tree.delete();
  }
}

async function loadParser(): Promise<Parser> {
  // Imported on first use, not with the package: a harness that runs no shell never pays for it.
  const { Language, Parser } = await import('web-tree-sitter');
  await Parser.init();
  const require = createRequire(import.meta.url);
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const instance = new Parser();
  instance.setLanguage(language);
  return instance;
}
