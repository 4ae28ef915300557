import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApproverRequest } from './approver.js';
import { terminalApprover } from './terminal-approver.js';

/** A keyboard the prompt reads as a TTY (clack puts it in raw mode). */
class FakeKeyboard extends PassThrough {
  readonly isTTY = true;
  setRawMode(): this {
    return this;
  }
}

/** A screen that records what was drawn. */
class FakeScreen extends PassThrough {
  readonly isTTY: boolean;
  readonly columns = 120;
  readonly rows = 40;
  text = '';
  constructor(isTTY = true) {
    super();
    this.isTTY = isTTY;
    this.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
  }
}

const KEYS = { enter: '\r', down: '\u001b[B', up: '\u001b[A', escape: '\u001b', ctrlC: '\u0003' } as const;

function request(overrides: Partial<ApproverRequest> = {}): ApproverRequest {
  return {
    callId: 'call_1',
    callKey: 'key_1',
    toolName: 'write_file',
    tier: 'write',
    arguments: { path: 'invoice\u202Etxt.exe', content: 'hi' },
    reason: 'write_file is a write tool',
    askedBy: 'safety',
    signal: new AbortController().signal,
    session: { description: 'write_file on src/**' },
    ...overrides,
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts one approval, waits for the prompt, types `keys` (each after a redraw). */
async function answer(keys: string[], overrides: Partial<ApproverRequest> = {}, options: { onInterrupt?: () => void } = {}) {
  const input = new FakeKeyboard();
  const output = new FakeScreen();
  const pending = Promise.resolve(terminalApprover({ input, output, ...options })(request(overrides)));
  await until(() => output.text.includes('Allow once'), 'the prompt');
  for (const key of keys) {
    const before = output.text.length;
    input.write(key);
    // Escape alone is told apart from an escape sequence by a 50 ms pause in readline.
    await until(() => output.text.length > before, `a redraw after ${JSON.stringify(key)}`);
  }
  return { result: await pending, screen: output.text };
}

describe('terminalApprover: input the person did not mean for this prompt', () => {
  it('discards keys that arrived before the prompt was drawn: a buffered Enter approves nothing', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    input.write(KEYS.enter);
    let settled = false;
    const pending = Promise.resolve(terminalApprover({ input, output })(request())).finally(() => (settled = true));
    await until(() => output.text.includes('Allow once'), 'the prompt');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    input.write(KEYS.escape);
    expect(await pending).toEqual({ decision: 'deny' });
  });

  it('the preselected answer is Deny: Enter on the prompt as drawn denies', async () => {
    const { result } = await answer([KEYS.enter]);
    expect(result).toEqual({ decision: 'deny' });
  });

  it('standard input closing during the prompt denies at once', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const pending = Promise.resolve(terminalApprover({ input, output })(request()));
    await until(() => output.text.includes('Allow once'), 'the prompt');
    const closedAt = Date.now();
    input.end();
    expect(await pending).toEqual({ decision: 'deny' });
    expect(Date.now() - closedAt).toBeLessThan(1000);
    expect(output.text).toContain('standard input was closed');
  });

  it('standard input already closed: denied without a prompt', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    input.end();
    input.resume();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await Promise.resolve(terminalApprover({ input, output })(request()))).toEqual({ decision: 'deny' });
  });
});

describe('terminalApprover', () => {
  it('shows the tool, its tier, the arguments with bidi overrides escaped, the reason and the choices', async () => {
    const { screen } = await answer([KEYS.enter]);
    expect(screen).toContain('write_file (write tool) wants to run with:');
    expect(screen).toContain('path: "invoice\\u202Etxt.exe"');
    expect(screen).not.toContain('\u202E');
    expect(screen).toContain('Why: write_file is a write tool');
    for (const label of ['Allow once', 'Allow for this session', 'Deny', 'Deny, with a message for the model']) expect(screen).toContain(label);
  });

  it('the first choice allows once', async () => {
    const { result, screen } = await answer([KEYS.up, KEYS.up, KEYS.enter]);
    expect(result).toEqual({ decision: 'allow', scope: 'once' });
    expect(screen).toContain('Allowed once.');
  });

  it('the second choice allows for the session shown', async () => {
    const { result, screen } = await answer([KEYS.up, KEYS.enter]);
    expect(result).toEqual({ decision: 'allow', scope: 'session' });
    expect(screen).toContain('write_file on src/**');
  });

  it('offers "allow always" with the rule it saves, shown before it is chosen', async () => {
    const always = { description: 'saves { allow: { tool: "write_file", path: "src/**" } } to .weir/settings.json', rule: { allow: { tool: 'write_file', path: 'src/**' } }, file: '/ws/.weir/settings.json' };
    // Allow once, Allow for this session, Allow always, [Deny], Deny with a message.
    const { result, screen } = await answer([KEYS.up, KEYS.enter], { always });
    expect(screen).toContain('Allow always');
    expect(screen).toContain('saves { allow: { tool: "write_file", path: "src/**" } } to .weir/settings.json');
    expect(result).toEqual({ decision: 'allow', scope: 'always' });
  });

  it('does not offer "allow for this session" when safety does not', async () => {
    const { result, screen } = await answer([KEYS.up, KEYS.enter], { session: undefined });
    expect(screen).not.toContain('Allow for this session');
    expect(result).toEqual({ decision: 'allow', scope: 'once' });
  });

  it('Deny denies without a message', async () => {
    const { result } = await answer([KEYS.enter]);
    expect(result).toEqual({ decision: 'deny' });
  });

  it('Deny with a message asks for the message and returns it', async () => {
    const { result, screen } = await answer([KEYS.down, KEYS.enter, 'u', 's', 'e', ' ', 'x', KEYS.enter]);
    expect(screen).toContain('What should the model be told?');
    expect(result).toEqual({ decision: 'deny', message: 'use x' });
  });

  it('Esc in the message prompt still denies, without a message', async () => {
    const { result } = await answer([KEYS.down, KEYS.enter, KEYS.escape]);
    expect(result).toEqual({ decision: 'deny' });
  });

  it('Esc denies', async () => {
    const { result, screen } = await answer([KEYS.escape]);
    expect(result).toEqual({ decision: 'deny' });
    expect(screen).toContain('Denied.');
  });

  it('Ctrl-C denies, says it was interrupted and tells the program, which decides what follows', async () => {
    let interrupts = 0;
    const { result, screen } = await answer([KEYS.ctrlC], {}, { onInterrupt: () => (interrupts += 1) });
    expect(result).toEqual({ decision: 'deny' });
    expect(screen).toContain('Denied: interrupted (Ctrl-C).');
    expect(interrupts).toBe(1);
  });

  it('Ctrl-C in the message prompt is an interrupt too; Esc and answers are not', async () => {
    let interrupts = 0;
    const onInterrupt = () => (interrupts += 1);
    await answer([KEYS.escape], {}, { onInterrupt });
    await answer([KEYS.enter], {}, { onInterrupt });
    expect(interrupts).toBe(0);
    const { result } = await answer([KEYS.down, KEYS.enter, KEYS.ctrlC], {}, { onInterrupt });
    expect(result).toEqual({ decision: 'deny' });
    expect(interrupts).toBe(1);
  });

  it('closes the prompt and denies when the request is aborted', async () => {
    const controller = new AbortController();
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const pending = Promise.resolve(terminalApprover({ input, output })(request({ signal: controller.signal })));
    await until(() => output.text.includes('Allow once'), 'the prompt');
    controller.abort(new Error('timed out'));
    expect(await pending).toEqual({ decision: 'deny' });
    expect(output.text).toContain('Denied: the request was cancelled or timed out.');
    expect(input.listenerCount('keypress')).toBe(0);
  });

  it('never prompts without a terminal: it throws (the call is denied) and draws nothing', async () => {
    const input = new PassThrough();
    const output = new FakeScreen(false);
    const approve = terminalApprover({ input, output });
    expect(() => approve(request())).toThrow('there is no terminal to ask: stdin is not a TTY');
    expect(() => terminalApprover({ input: new FakeKeyboard(), output })(request())).toThrow('stdout is not a TTY');
    expect(output.text).toBe('');
  });

  it('never draws two prompts at once: the second waits for the first answer', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const approve = terminalApprover({ input, output });
    const first = Promise.resolve(approve(request({ callId: 'a' })));
    const second = Promise.resolve(approve(request({ callId: 'b', toolName: 'edit_file' })));
    await until(() => output.text.includes('Allow once'), 'the first prompt');
    expect(output.text).not.toContain('edit_file');
    input.write(KEYS.up);
    input.write(KEYS.up);
    input.write(KEYS.enter);
    expect(await first).toEqual({ decision: 'allow', scope: 'once' });
    await until(() => output.text.includes('edit_file'), 'the second prompt');
    input.write(KEYS.escape);
    expect(await second).toEqual({ decision: 'deny' });
  });

  it('an aborted request waiting its turn is denied without being drawn', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const approve = terminalApprover({ input, output });
    const controller = new AbortController();
    const first = Promise.resolve(approve(request({ callId: 'a' })));
    const second = Promise.resolve(approve(request({ callId: 'b', toolName: 'edit_file', signal: controller.signal })));
    await until(() => output.text.includes('Allow once'), 'the first prompt');
    controller.abort();
    input.write(KEYS.enter);
    await first;
    expect(await second).toEqual({ decision: 'deny' });
    expect(output.text).not.toContain('edit_file');
  });
});

describe('terminalApprover: arguments too long for the prompt', () => {
  const content = `${'x'.repeat(2_500)}TAIL-THE-PROMPT-CUT`;

  it('says how much is cut, offers no allow until everything was shown, then allows what was shown', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const pending = Promise.resolve(terminalApprover({ input, output })(request({ arguments: { path: 'a.txt', content } })));
    await until(() => output.text.includes('Show all arguments'), 'the prompt');
    const first = output.text;
    expect(first).toMatch(/… \(\d+ more characters not shown\)/);
    expect(first).not.toContain('TAIL-THE-PROMPT-CUT');
    expect(first).not.toContain('Allow once');
    // From Deny up to "Show all arguments".
    for (const key of [KEYS.up, KEYS.enter]) {
      const before = output.text.length;
      input.write(key);
      await until(() => output.text.length > before, 'a redraw');
    }
    await until(() => output.text.includes('Allow once'), 'the prompt with the allow choices');
    expect(output.text.slice(first.length)).toContain('TAIL-THE-PROMPT-CUT');
    for (const key of [KEYS.up, KEYS.up, KEYS.enter]) {
      const before = output.text.length;
      input.write(key);
      await until(() => output.text.length > before, 'a redraw');
    }
    expect(await pending).toEqual({ decision: 'allow', scope: 'once' });
  });

  it('Enter on the cut prompt as drawn denies', async () => {
    const input = new FakeKeyboard();
    const output = new FakeScreen();
    const pending = Promise.resolve(terminalApprover({ input, output })(request({ arguments: { content } })));
    await until(() => output.text.includes('Show all arguments'), 'the prompt');
    input.write(KEYS.enter);
    expect(await pending).toEqual({ decision: 'deny' });
  });
});
