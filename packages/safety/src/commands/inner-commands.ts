import { programName, type CommandWord } from './command-word.js';

/**
 * Programs that run the program named in their arguments, each with its options that take a
 * value (so the value is not mistaken for the program). `leading` counts positional arguments
 * before the program (`timeout 5 rm x`: the duration).
 */
const WRAPPERS: Readonly<Record<string, { readonly valued: readonly string[]; readonly leading?: number; readonly skipAssignments?: boolean }>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], skipAssignments: true },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata', '-p', '--pid'] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  sudo: { valued: ['-u', '--user', '-g', '--group', '-C', '-D', '-h', '-p', '-r', '-t', '-U'] },
  doas: { valued: ['-u', '-C'] },
  xargs: { valued: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars'] },
  chrt: { valued: [], leading: 1 },
  taskset: { valued: [], leading: 1 },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], leading: 1 },
  watch: { valued: ['-n', '--interval', '-d'] },
  strace: { valued: ['-e', '-o', '-p', '-s', '-u', '-E'] },
  unbuffer: { valued: [] },
};

/**
 * The commands that `argv` runs besides itself, outermost first: a wrapper's program
 * (`timeout 5 rm x` runs `rm x`, `env FOO=1 rm x` too, wrappers nested any depth), and what
 * `find -exec ... ;` and `find -execdir` run. Deny and ask rules are checked against each, so a
 * wrapper does not hide a denied program. A word expanded at run time stays `undefined`.
 */
export function innerCommands(argv: readonly CommandWord[]): CommandWord[][] {
  const found: CommandWord[][] = [];
  let current = argv;
  for (let depth = 0; depth < 8; depth++) {
    const next = unwrap(current);
    if (next === undefined || next.length === 0) break;
    found.push(next);
    current = next;
  }
  found.push(...findExecCommands(argv));
  return found;
}

function unwrap(argv: readonly CommandWord[]): CommandWord[] | undefined {
  const program = programName(argv[0]);
  const wrapper = program === undefined ? undefined : WRAPPERS[program];
  if (wrapper === undefined) return undefined;
  let index = 1;
  let leading = wrapper.leading ?? 0;
  while (index < argv.length) {
    const word = argv[index];
    if (word === undefined) return argv.slice(index);
    if (word === '--') {
      index++;
      break;
    }
    if (word.startsWith('-') && word !== '-') {
      index += wrapper.valued.includes(word) ? 2 : 1;
      continue;
    }
    if (wrapper.skipAssignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index++;
      continue;
    }
    if (leading > 0) {
      leading--;
      index++;
      continue;
    }
    break;
  }
  return argv.slice(index);
}

function findExecCommands(argv: readonly CommandWord[]): CommandWord[][] {
  const program = programName(argv[0]);
  if (program !== 'find') return [];
  const found: CommandWord[][] = [];
  for (let index = 1; index < argv.length; index++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(argv[index] ?? '')) continue;
    const end = argv.findIndex((word, at) => at > index && (word === ';' || word === '+'));
    found.push(argv.slice(index + 1, end === -1 ? undefined : end));
  }
  return found;
}
