import { programName, type CommandWord } from './command-word.js';

/**
 * A command pattern such as `git status`, `npm test` or `rm *`: words separated by spaces. A `*`
 * word stands for exactly one word, and a final `*` for any number of further words (none
 * included). Every other word is compared literally with the command's words after quote
 * removal (`r''m` is `rm`).
 */
export interface CommandPattern {
  readonly source: string;
  readonly words: readonly string[];
  readonly rest: boolean;
}

/** Compiles a pattern. Throws `TypeError` on an empty pattern or one that starts with `*` (it would name no program). */
export function compileCommandPattern(source: string): CommandPattern {
  if (typeof source !== 'string') throw new TypeError(`a command pattern must be a string, got ${typeof source}`);
  const words = source.trim().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) throw new TypeError('a command pattern must name a program, got an empty string');
  if (words[0] === '*') throw new TypeError(`a command pattern must start with a program name, got ${JSON.stringify(source)}`);
  const rest = words.at(-1) === '*';
  return Object.freeze({ source, words: Object.freeze(rest ? words.slice(0, -1) : words), rest });
}

/**
 * For an allow rule: true only when every word is known and matches exactly, the program
 * spelled as in the pattern (`/usr/bin/git status` is not `git status`).
 */
export function allowMatches(pattern: CommandPattern, argv: readonly CommandWord[]): boolean {
  if (argv.length < pattern.words.length || (!pattern.rest && argv.length !== pattern.words.length)) return false;
  if (argv.some((word) => word === undefined)) return false;
  return pattern.words.every((word, index) => word === '*' || word === argv[index]);
}

/**
 * For a deny or ask rule: true when the command may be what the pattern names. The program is
 * compared by its last path segment (`/usr/bin/rm` is `rm`), and a word expanded at run time
 * could be anything, so it matches any pattern word. A command whose program is expanded at
 * run time is not matched here: the analysis marks it uncertain, and it is asked about.
 */
export function strictMatches(pattern: CommandPattern, argv: readonly CommandWord[]): boolean {
  if (argv.length < pattern.words.length || (!pattern.rest && argv.length !== pattern.words.length)) return false;
  const program = programName(argv[0]);
  if (program === undefined || program !== programName(pattern.words[0])) return false;
  return pattern.words.every((word, index) => index === 0 || word === '*' || argv[index] === undefined || word === argv[index]);
}
