import type { Readable, Writable } from 'node:stream';
import type { Approver, ApproverAnswer, ApproverRequest } from './approver.js';
import { escapeForTerminal } from './escape-for-terminal.js';
import { DEFAULT_MAX_VALUE_CHARS, formatApproval, hiddenCharacters } from './format-approval.js';

export interface TerminalApproverOptions {
  /** Where keys come from. Default `process.stdin`. */
  readonly input?: Readable & { readonly isTTY?: boolean };
  /**
   * Where the prompt is drawn. Default `process.stdout`, or `process.stderr` when only that is a
   * terminal (output piped to a file or another program), so the prompt still reaches the person.
   */
  readonly output?: Writable & { readonly isTTY?: boolean };
  /**
   * Told when the person presses Ctrl-C at the prompt, after the call was denied. The approver never
   * ends the process itself: the program decides (a one-shot script exits with status 130, an
   * interactive program cancels the turn). Must not throw.
   */
  readonly onInterrupt?: () => void;
  /** Cap on one argument's shown JSON, in characters. Default 2000. */
  readonly maxValueChars?: number;
}

type Choice = 'show-all' | 'allow-once' | 'allow-session' | 'allow-always' | 'deny' | 'deny-with-message';

const DENY: ApproverAnswer = Object.freeze({ decision: 'deny' });

type Clack = typeof import('@clack/prompts');
let clack: Promise<Clack> | undefined;

/** @clack/prompts, imported when the first prompt is drawn: importing safety must not pay for it (cold start). */
function loadClack(): Promise<Clack> {
  clack ??= import('@clack/prompts');
  return clack;
}

/**
 * An approver that asks the person at the terminal, with @clack/prompts: it shows the tool, its
 * tier and its arguments (control characters and bidi overrides escaped, see `escapeForTerminal`)
 * and offers allow once, allow for this session and allow always (when safety offers them, with what
 * they cover or save), deny, and deny with a
 * message for the model, with the cursor on Deny. An argument longer than `maxValueChars` is cut
 * (the cut says how many characters are not shown); then the prompt offers "Show all" instead of
 * the allow choices, which prints every argument in full and asks again: nothing is allowed that
 * the person could not see. Keys typed before the prompt is drawn are
 * discarded. Esc and Ctrl-C deny; Ctrl-C also says the prompt was interrupted and calls
 * `onInterrupt`. An abort of `request.signal` denies too, and closes the prompt, and so does
 * standard input closing. Prompts never overlap: requests wait their turn.
 *
 * Without a terminal (input or output is not a TTY) it never prompts: it throws, and the call is
 * denied (fail closed), with a message saying there was no terminal to ask. Modes that need no
 * prompt (`allow-all-unsafe`, or `read-only`) never call it.
 */
export function terminalApprover(options: TerminalApproverOptions = {}): Approver {
  const maxValueChars = options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS;
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const input = options.input ?? process.stdin;
    const output = options.output ?? (process.stdout.isTTY !== true && process.stderr.isTTY === true ? process.stderr : process.stdout);
    if (input.isTTY !== true || output.isTTY !== true) {
      const which = input.isTTY !== true ? 'stdin' : options.output === undefined ? 'neither stdout nor stderr' : 'stdout';
      throw new Error(`there is no terminal to ask: ${which} is not a TTY`);
    }
    const turn = queue.then(() => prompt(request, { input, output, maxValueChars, onInterrupt: options.onInterrupt }));
    queue = turn.catch(() => undefined);
    return turn;
  };
}

interface PromptIO {
  readonly input: Readable;
  readonly output: Writable;
  readonly maxValueChars: number;
  readonly onInterrupt?: (() => void) | undefined;
}

async function prompt(request: ApproverRequest, io: PromptIO): Promise<ApproverAnswer> {
  if (request.signal.aborted) return DENY;
  const { isCancel, log, select, text } = await loadClack();
  // Say how it ended: a cancelled clack prompt still shows the option the cursor was on.
  const done = (answer: ApproverAnswer, note: string) => {
    (answer.decision === 'allow' ? log.success : log.warn)(note, { output: io.output });
    return answer;
  };
  if (inputClosed(io.input)) return done(DENY, 'Denied: standard input was closed, so nobody can answer.');
  // Standard input closing (the terminal went away, a pipe ended) ends the prompt at once: nobody
  // can answer any more, so waiting for the approval timeout would only hold the call.
  const closed = new AbortController();
  const onClosed = () => closed.abort(new Error('standard input was closed'));
  for (const event of CLOSE_EVENTS) io.input.on(event, onClosed);
  const signal = AbortSignal.any([request.signal, closed.signal]);
  // clack cancels on Esc and Ctrl-C alike; Ctrl-C is told apart by its keypress event.
  let interrupted = false;
  const onKeypress = (text: string | undefined, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (text === '\u0003' || (key?.ctrl === true && key.name === 'c')) interrupted = true;
  };
  try {
    await discardPendingInput(io.input, signal);
    io.input.on('keypress', onKeypress);
    return await choose(request, io, signal, done, () => closed.signal.aborted, { isCancel, log, select, text }, () => interrupted);
  } finally {
    io.input.off('keypress', onKeypress);
    for (const event of CLOSE_EVENTS) io.input.off(event, onClosed);
    if (interrupted) io.onInterrupt?.();
  }
}

async function choose(
  request: ApproverRequest,
  io: PromptIO,
  signal: AbortSignal,
  done: (answer: ApproverAnswer, note: string) => ApproverAnswer,
  inputGone: () => boolean,
  { isCancel, log, select, text }: Pick<Clack, 'isCancel' | 'log' | 'select' | 'text'>,
  interrupted: () => boolean,
): Promise<ApproverAnswer> {
  const common = { input: io.input, output: io.output, signal };
  const cancelled = () =>
    done(
      DENY,
      interrupted()
        ? 'Denied: interrupted (Ctrl-C).'
        : inputGone()
          ? 'Denied: standard input was closed, so nobody can answer.'
          : request.signal.aborted
            ? 'Denied: the request was cancelled or timed out.'
            : 'Denied.',
    );
  if (signal.aborted) return cancelled();

  const hidden = hiddenCharacters(request, io.maxValueChars);
  const allow: { value: Choice; label: string; hint?: string }[] = [{ value: 'allow-once', label: 'Allow once' }];
  if (request.session !== undefined) {
    allow.push({ value: 'allow-session', label: 'Allow for this session', hint: escapeForTerminal(request.session.description) });
  }
  if (request.always !== undefined) {
    allow.push({ value: 'allow-always', label: 'Allow always', hint: escapeForTerminal(request.always.description) });
  }
  const deny: { value: Choice; label: string }[] = [{ value: 'deny', label: 'Deny' }, { value: 'deny-with-message', label: 'Deny, with a message for the model' }];

  // The cursor starts on Deny: an Enter meant for something else must not approve. While part of the
  // arguments is cut, allowing is not offered: only showing them all, or denying.
  let choice: Choice | symbol;
  if (hidden > 0) {
    const show = { value: 'show-all' as Choice, label: 'Show all arguments', hint: `${hidden} characters are not shown; allowing needs them seen` };
    choice = await select<Choice>({ ...common, message: formatApproval(request, io.maxValueChars).join('\n'), options: [show, ...deny], initialValue: 'deny' });
    if (isCancel(choice) || signal.aborted) return cancelled();
    if (choice === 'show-all') {
      // Printed once, above the prompt: a prompt taller than the screen cannot be redrawn in place.
      log.message(formatApproval(request, Infinity).join('\n'), { output: io.output });
      const message = `${escapeForTerminal(request.toolName)} (${request.tier} tool): its arguments are shown in full above.`;
      choice = await select<Choice>({ ...common, message, options: [...allow, ...deny], initialValue: 'deny' });
    }
  } else {
    choice = await select<Choice>({ ...common, message: formatApproval(request, io.maxValueChars).join('\n'), options: [...allow, ...deny], initialValue: 'deny' });
  }
  if (isCancel(choice) || signal.aborted) return cancelled();
  return answerFor(choice as Choice, request, common, signal, done, cancelled, { isCancel, text });
}

async function answerFor(
  choice: Choice,
  request: ApproverRequest,
  common: { input: Readable; output: Writable; signal: AbortSignal },
  signal: AbortSignal,
  done: (answer: ApproverAnswer, note: string) => ApproverAnswer,
  cancelled: () => ApproverAnswer,
  { isCancel, text }: Pick<Clack, 'isCancel' | 'text'>,
): Promise<ApproverAnswer> {
  switch (choice) {
    case 'allow-once':
      return done({ decision: 'allow', scope: 'once' }, 'Allowed once.');
    case 'allow-session':
      return done({ decision: 'allow', scope: 'session' }, `Allowed for this session: ${escapeForTerminal(request.session?.description ?? '')}.`);
    case 'allow-always':
      return done({ decision: 'allow', scope: 'always' }, `Allowed always: ${escapeForTerminal(request.always?.description ?? '')}.`);
    case 'deny':
    case 'show-all': // not offered once everything is shown
      return done(DENY, 'Denied.');
    case 'deny-with-message': {
      const message = await text({ ...common, message: 'What should the model be told? (Esc: deny without a message)' });
      if (isCancel(message) || signal.aborted) return cancelled();
      if (message.trim() === '') return done(DENY, 'Denied.');
      return done({ decision: 'deny', message: message.trim() }, 'Denied; the model will be told your message.');
    }
  }
}

const CLOSE_EVENTS = ['end', 'close', 'error'] as const;

/** Input arriving less often than this is taken as typed after the prompt, not buffered before it. */
const QUIET_MS = 40;
/** A stream that never goes quiet (a key held down) is cut off after this long. */
const MAX_DISCARD_MS = 300;

function inputClosed(input: Readable): boolean {
  return input.readableEnded || input.destroyed || (input as { closed?: boolean }).closed === true;
}

/**
 * Throws away every key that reached the terminal before the prompt is drawn (typed ahead, or
 * meant for something else): what is buffered in the stream and what the terminal driver holds,
 * which arrives as soon as the stream reads in raw mode. Reads until the input has been quiet for
 * `QUIET_MS` (at most `MAX_DISCARD_MS`), then pauses it for the prompt.
 */
async function discardPendingInput(input: Readable, signal: AbortSignal): Promise<void> {
  const terminal = input as Readable & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
  if (terminal.isTTY === true && typeof terminal.setRawMode === 'function') terminal.setRawMode(true);
  let last = Date.now();
  const started = last;
  const drop = () => {
    last = Date.now();
  };
  input.on('data', drop);
  try {
    while (!signal.aborted && Date.now() - last < QUIET_MS && Date.now() - started < MAX_DISCARD_MS) {
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 4));
    }
  } finally {
    input.off('data', drop);
    input.pause();
  }
}
