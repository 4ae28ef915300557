import { programName, wordValue, type CommandWord } from './command-word.js';
import { innerCommands } from './inner-commands.js';
import { loadShellParser, parseShellSync, type SyntaxNode } from './shell-parser.js';

/** One simple command found anywhere in a command line (in a pipeline, a list, a substitution...). */
export interface SimpleCommand {
  /** The words after the leading assignments; `argv[0]` is the program. */
  readonly argv: readonly CommandWord[];
  /** The command's source text, for reasons. */
  readonly text: string;
  /** Why no allow rule may cover this command (empty when one may). */
  readonly blockers: readonly string[];
  /** Commands this one runs (a wrapper's program, `find -exec`, `xargs`), checked against deny and ask rules too. */
  readonly inner: readonly (readonly CommandWord[])[];
}

/** What a command line does, as far as the parser can tell. */
export type CommandAnalysis =
  | {
      readonly ok: true;
      /** Every simple command, outer and nested (`bash -c '...'` and `eval` bodies, up to two levels deep). */
      readonly commands: readonly SimpleCommand[];
      /** Why no allow rule may cover the line as a whole (an `if`, a `for`, a function, a redirect to a file, a `cd`...). */
      readonly blockers: readonly string[];
      /** Why the line must be asked about even where the mode would run it: what a deny rule cannot see. */
      readonly uncertain: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

const MAX_NESTING = 2;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
/** Variables that change what a command runs or loads: a prefix assignment of one is never auto-allowed. */
const RISKY_ASSIGNMENT = /^(LD_|DYLD_|GIT_|BASH_FUNC_)|^(PATH|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB)$/;
/** Redirect targets that are not files. */
const NOT_A_FILE = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
/** Compound statements the analysis does not model: their parts are checked for denies, but no allow covers them. */
const UNMODELLED: Readonly<Record<string, string>> = {
  function_definition: 'a function definition',
  if_statement: 'an if statement',
  while_statement: 'a loop',
  for_statement: 'a for loop',
  c_style_for_statement: 'a for loop',
  case_statement: 'a case statement',
  test_command: 'a [[ test ]]',
  arithmetic_expansion: 'an arithmetic expansion',
};
/** Nodes that only hold other nodes. */
const STRUCTURAL = new Set(['program', 'list', 'pipeline', 'subshell', 'compound_statement', 'redirected_statement', 'negated_command', 'command_substitution', 'process_substitution', 'heredoc_redirect', 'herestring_redirect', 'heredoc_body', 'string', 'concatenation', 'expansion', 'simple_expansion']);
/** Leaves with nothing to check. */
const LEAVES = new Set(['word', 'raw_string', 'ansi_c_string', 'translated_string', 'number', 'string_content', 'heredoc_content', 'heredoc_start', 'heredoc_end', 'variable_name', 'special_variable_name', 'comment', 'file_descriptor', 'regex', 'extglob_pattern']);

/**
 * Parses a command line and lists what it runs, once the parser is loaded. Never throws: a line
 * that does not parse as bash is `{ ok: false }` (the caller asks), and so is a parser that
 * cannot load. Nested `bash -c '...'` and `eval` bodies are parsed too, up to two levels;
 * deeper, or when their text is not literal, the line is uncertain.
 */
export async function analyzeCommand(source: string): Promise<CommandAnalysis> {
  try {
    await loadShellParser();
  } catch (error) {
    return { ok: false, reason: `the shell parser could not load (${error instanceof Error ? error.message : String(error)})` };
  }
  return analyzeCommandSync(source);
}

/** `analyzeCommand` with the parser already loaded (`loadShellParser`); before that, `{ ok: false }`. */
export function analyzeCommandSync(source: string): CommandAnalysis {
  return analyzeAt(source, 0);
}

interface Collected {
  readonly commands: SimpleCommand[];
  readonly blockers: string[];
  readonly uncertain: string[];
}

function analyzeAt(source: string, depth: number): CommandAnalysis {
  if (source.includes('\0')) return { ok: false, reason: 'the command contains a NUL character' };
  const parsed = parseShellSync(source, (root) => {
    const collected: Collected = { commands: [], blockers: [], uncertain: [] };
    walk(root, collected);
    return collected;
  });
  if (!parsed.ok) return parsed;
  const { commands, blockers, uncertain } = parsed.value;
  if (commands.length === 0 && source.trim() !== '') blockers.push('no command');

  // A cd moves the later parts somewhere the rules did not see (cd /tmp && git push).
  const cdAt = commands.findIndex((command) => ['cd', 'pushd', 'popd'].includes(command.argv[0] ?? ''));
  if (cdAt !== -1 && cdAt < commands.length - 1) blockers.push('a cd before other commands');

  const nested: SimpleCommand[] = [];
  for (const command of commands) {
    const body = nestedSource(command.argv);
    if (body === undefined) continue;
    if (body === null || depth + 1 > MAX_NESTING) {
      uncertain.push(`${command.text} runs code the rules cannot read`);
      continue;
    }
    const inner = analyzeAt(body, depth + 1);
    if (!inner.ok) {
      uncertain.push(`${command.text} runs code that does not parse`);
      continue;
    }
    nested.push(...inner.commands);
    blockers.push(...inner.blockers);
    uncertain.push(...inner.uncertain);
  }
  return { ok: true, commands: [...commands, ...nested], blockers, uncertain };
}

/**
 * The shell code a command runs as text: `bash -c 'code'`, `eval code...`. `undefined` when it
 * runs none this way, `null` when it does but the code is not literal.
 */
function nestedSource(argv: readonly CommandWord[]): string | null | undefined {
  const program = programName(argv[0]);
  if (program === 'eval') return argv.slice(1).every((word) => word !== undefined) ? argv.slice(1).join(' ') : null;
  if (program === undefined || !SHELLS.has(program)) return undefined;
  const flag = argv.findIndex((word, index) => index > 0 && word !== undefined && /^-[a-z]*c[a-z]*$/.test(word));
  if (flag === -1) return argv.length > 1 ? null : undefined;
  const code = argv[flag + 1];
  return code === undefined ? null : code;
}

function walk(node: SyntaxNode, out: Collected): void {
  if (node.type === 'ERROR' || node.isMissing) {
    out.uncertain.push('a part that does not parse');
    return;
  }
  if (!node.isNamed) return;
  switch (node.type) {
    case 'command':
      collectCommand(node, out);
      return;
    case 'declaration_command':
    case 'unset_command':
      collectDeclaration(node, out);
      return;
    case 'variable_assignment':
      // A bare assignment (f=.env && cat "$f") sets what later words expand to: never auto-allowed.
      out.commands.push({ argv: [], text: node.text, blockers: ['a variable assignment'], inner: [] });
      walkChildren(node, out);
      return;
    case 'file_redirect':
      checkRedirect(node, out.blockers);
      walkChildren(node, out);
      return;
  }
  if (LEAVES.has(node.type)) return;
  const unmodelled = UNMODELLED[node.type];
  if (unmodelled !== undefined) out.blockers.push(unmodelled);
  else if (!STRUCTURAL.has(node.type)) out.blockers.push(`an unmodelled ${node.type.replaceAll('_', ' ')}`);
  walkChildren(node, out);
}

function walkChildren(node: SyntaxNode, out: Collected): void {
  for (const child of node.children) if (child !== null) walk(child, out);
}

function collectCommand(node: SyntaxNode, out: Collected): void {
  const argv: CommandWord[] = [];
  const blockers: string[] = [];
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (child.type === 'variable_assignment') {
      const name = child.namedChildren[0]?.text ?? '';
      if (RISKY_ASSIGNMENT.test(name)) blockers.push(`it sets ${name}`);
      walkChildren(child, out);
    } else if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
      walk(child, out);
    } else if (child.type === 'command_name') {
      const word = child.namedChildren[0];
      argv.push(word ? wordValue(word) : undefined);
      if (word) walkChildren(child, out);
    } else {
      argv.push(wordValue(child));
      walk(child, out);
    }
  }
  if (argv.length > 0 && argv[0] === undefined) {
    blockers.push('the program name is expanded at run time');
    out.uncertain.push(`${node.text}: the program name is expanded at run time`);
  } else if (argv.some((word) => word === undefined)) {
    blockers.push('an argument is expanded at run time ($VAR, $(...), `...`)');
  }
  blockers.push(...riskyArguments(argv));
  out.commands.push({ argv, text: node.text, blockers, inner: innerCommands(argv) });
}

function collectDeclaration(node: SyntaxNode, out: Collected): void {
  const keyword = node.children.find((child) => child !== null && !child.isNamed)?.text;
  const argv: CommandWord[] = [keyword];
  for (const child of node.namedChildren) if (child !== null) argv.push(wordValue(child) ?? (child.type === 'variable_assignment' ? literalAssignment(child) : undefined));
  walkChildren(node, out);
  const blockers = argv.some((word) => word === undefined) ? ['an argument is expanded at run time ($VAR, $(...), `...`)'] : [];
  out.commands.push({ argv, text: node.text, blockers, inner: [] });
}

function literalAssignment(node: SyntaxNode): CommandWord {
  const [name, value] = node.namedChildren;
  if (!name) return undefined;
  if (!value) return `${name.text}=`;
  const literal = wordValue(value);
  return literal === undefined ? undefined : `${name.text}=${literal}`;
}

function checkRedirect(node: SyntaxNode, blockers: string[]): void {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.text ?? '';
  if (operator === '<' || operator === '<<<') return;
  const target = node.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type !== 'file_descriptor').at(-1);
  const value = target ? wordValue(target) : undefined;
  // >&2, 2>&1, <&-: duplicating or closing a descriptor writes no file.
  if ((operator === '>&' || operator === '<&' || operator === '>&-' || operator === '<&-') && (value === undefined ? false : /^(\d+|-)$/.test(value))) return;
  if (value !== undefined && NOT_A_FILE.has(value)) return;
  blockers.push(`it writes to ${value === undefined ? 'a file named at run time' : JSON.stringify(value)} (${operator})`);
}

/** Arguments that make an otherwise harmless program run code or write where it was not asked to. */
function riskyArguments(argv: readonly CommandWord[]): string[] {
  const program = programName(argv[0]);
  const args = argv.slice(1).filter((word): word is string => word !== undefined);
  const found = (test: (arg: string) => boolean, what: string) => (args.some(test) ? [what] : []);
  switch (program) {
    case 'find':
      return found((arg) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(arg), 'find runs or deletes (-exec, -ok, -delete, -fprint)');
    case 'rg':
      return found((arg) => arg === '--pre' || arg.startsWith('--pre='), 'rg --pre runs a program');
    case 'git':
      return found((arg) => arg === '-c' || arg.startsWith('-c') && arg.length > 2 && !arg.startsWith('--') || arg === '-p' || arg === '--paginate' || arg.startsWith('--config-env') || arg.startsWith('--exec-path') || arg.startsWith('-O') || arg.startsWith('--open-files-in-pager') || arg.startsWith('--upload-pack') || arg.startsWith('--receive-pack') || arg.startsWith('--ext-diff'), 'git with an option that runs a program (-c, -p, -O, --exec-path, --upload-pack...)');
    case 'sed':
      return found((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'), 'sed -i edits files');
    default:
      return [];
  }
}
