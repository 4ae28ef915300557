import type { Readable, Writable } from 'node:stream';
import { isCancel, log, select, text } from '@clack/prompts';
import type { Approver, ApproverAnswer, ApproverRequest } from './approver.js';
import { escapeForTerminal } from './escape-for-terminal.js';
import { DEFAULT_MAX_VALUE_CHARS, formatApproval } from './format-approval.js';

export interface TerminalApproverOptions {
  /** Where keys come from. Default `process.stdin`. */
  readonly input?: Readable & { readonly isTTY?: boolean };
  /** Where the prompt is drawn. Default `process.stdout`. */
  readonly output?: Writable & { readonly isTTY?: boolean };
  /** Cap on one argument's shown JSON, in characters. Default 2000. */
  readonly maxValueChars?: number;
}

type Choice = 'allow-once' | 'allow-session' | 'deny' | 'deny-with-message';

const DENY: ApproverAnswer = Object.freeze({ decision: 'deny' });

/**
 * An approver that asks the person at the terminal, with @clack/prompts: it shows the tool, its
 * tier and its arguments (control characters and bidi overrides escaped, see `escapeForTerminal`)
 * and offers allow once, allow for this session (when safety offers it), deny, and deny with a
 * message for the model. Esc and Ctrl-C deny; so does an abort of `request.signal`, which also
 * closes the prompt. Prompts never overlap: requests wait their turn.
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
    const output = options.output ?? process.stdout;
    if (input.isTTY !== true || output.isTTY !== true) {
      throw new Error(`there is no terminal to ask: ${input.isTTY !== true ? 'stdin' : 'stdout'} is not a TTY`);
    }
    const turn = queue.then(() => prompt(request, { input, output, maxValueChars }));
    queue = turn.catch(() => undefined);
    return turn;
  };
}

async function prompt(request: ApproverRequest, io: { input: Readable; output: Writable; maxValueChars: number }): Promise<ApproverAnswer> {
  if (request.signal.aborted) return DENY;
  const common = { input: io.input, output: io.output, signal: request.signal };
  // Say how it ended: a cancelled clack prompt still shows the option the cursor was on.
  const done = (answer: ApproverAnswer, note: string) => {
    (answer.decision === 'allow' ? log.success : log.warn)(note, { output: io.output });
    return answer;
  };
  const cancelled = () => done(DENY, request.signal.aborted ? 'Denied: the request was cancelled or timed out.' : 'Denied.');

  const options: { value: Choice; label: string; hint?: string }[] = [{ value: 'allow-once', label: 'Allow once' }];
  if (request.session !== undefined) {
    options.push({ value: 'allow-session', label: 'Allow for this session', hint: escapeForTerminal(request.session.description) });
  }
  options.push({ value: 'deny', label: 'Deny' }, { value: 'deny-with-message', label: 'Deny, with a message for the model' });

  const choice = await select<Choice>({ ...common, message: formatApproval(request, io.maxValueChars).join('\n'), options, initialValue: 'allow-once' });
  if (isCancel(choice)) return cancelled();
  switch (choice) {
    case 'allow-once':
      return done({ decision: 'allow', scope: 'once' }, 'Allowed once.');
    case 'allow-session':
      return done({ decision: 'allow', scope: 'session' }, `Allowed for this session: ${escapeForTerminal(request.session?.description ?? '')}.`);
    case 'deny':
      return done(DENY, 'Denied.');
    case 'deny-with-message': {
      const message = await text({ ...common, message: 'What should the model be told? (Esc: deny without a message)' });
      if (isCancel(message)) return cancelled();
      if (message.trim() === '') return done(DENY, 'Denied.');
      return done({ decision: 'deny', message: message.trim() }, 'Denied; the model will be told your message.');
    }
  }
}
