import type { SyntaxNode } from './shell-parser.js';

/** A word of a command: its value after quote removal, or `undefined` when bash expands it at run time. */
export type CommandWord = string | undefined;

/** The program's name as rules compare it: the last path segment (`/usr/bin/rm` is `rm`). */
export function programName(word: CommandWord): string | undefined {
  if (word === undefined) return undefined;
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/** A word's value after quote removal, or `undefined` when any part of it is expanded at run time. */
export function wordValue(node: SyntaxNode): CommandWord {
  switch (node.type) {
    case 'word':
      // Outside quotes a backslash quotes the next character; a backslash-newline joins lines.
      return node.text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      let value = '';
      for (const child of node.namedChildren) {
        if (child === null) continue;
        if (child.type !== 'string_content') return undefined;
        // Inside double quotes a backslash quotes only $ ` " \ and newline.
        value += child.text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
      }
      return value;
    }
    case 'concatenation': {
      let value = '';
      for (const child of node.namedChildren) {
        const part = child === null ? undefined : wordValue(child);
        if (part === undefined) return undefined;
        value += part;
      }
      return value;
    }
    default:
      return undefined;
  }
}
