// Compaction in `weir` (a real terminal, the mock model): `/compact <instructions>` fires PreCompact
// (trigger manual, the instructions) and records the compaction in the session; a PreCompact hook
// that exits 2 stops it with its reason; past "compact.auto" of a small "compact.contextWindow"
// the conversation compacts on its own, firing PreCompact with trigger auto. The hooks are sh
// scripts the tests write.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from './support/run-weir.js';
import { startTerminal, tmuxMissing, type Terminal } from './support/terminal.js';

if (tmuxMissing !== undefined) console.warn(`[cli] the compaction tests are skipped: ${tmuxMissing}`);

let sandbox: Sandbox | undefined;
let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
  sandbox?.remove();
  sandbox = undefined;
});

const put = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

/** A sandbox whose user settings run `script` (an sh file written here) on PreCompact. */
function sandboxWithPreCompact(script: string): { sandbox: Sandbox; script: string } {
  const made = makeSandbox();
  sandbox = made;
  const file = join(made.home, 'hooks', 'pre-compact.sh');
  put(file, `#!/bin/sh\n${script}\n`);
  put(join(made.home, 'settings.json'), { hooks: { PreCompact: [{ hooks: [{ type: 'command', command: `sh ${file}` }] }] } });
  return { sandbox: made, script: file };
}

/** The records of the workspace's one session. */
function sessionRecords(workspace: string): { type: string; [key: string]: unknown }[] {
  const dir = join(workspace, '.weir', 'sessions');
  const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0]!), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

async function say(t: Terminal, ...prompts: string[]): Promise<void> {
  for (const prompt of prompts) {
    await t.type(prompt);
    await t.waitFor(new RegExp(`${prompt}[\\s\\S]*\\n> $`, 'm'));
  }
}

describe.skipIf(tmuxMissing !== undefined)('compaction in weir', () => {
  it('/compact <instructions> fires PreCompact with trigger manual and the instructions, and the compaction is recorded in the session', async () => {
    const { sandbox: s } = sandboxWithPreCompact('cat > "$WEIR_PROJECT_DIR/pre-compact.json"');
    terminal = startTerminal([], s.workspace, s.env);
    const t = terminal;
    const opened = await t.waitFor(/\[session\] (\S+) new[\s\S]*^> /m);
    const sessionId = /\[session\] (\S+) new/.exec(opened)![1]!;
    await say(t, 'first message', 'second message', 'third message');
    await t.type('/compact keep the message numbers');
    await t.waitFor(/\[compact\] 3 earlier messages became a summary \(by mock:rules\); the conversation is 5 messages, was 7/);
    const payload = JSON.parse(readFileSync(join(s.workspace, 'pre-compact.json'), 'utf8'));
    expect(payload).toEqual({
      session_id: sessionId,
      transcript_path: join(s.workspace, '.weir', 'sessions', `${sessionId}.jsonl`),
      cwd: s.workspace,
      permission_mode: 'default',
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep the message numbers',
    });
    // The conversation goes on from the summary.
    await say(t, 'fourth message');
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
    const compactions = sessionRecords(s.workspace).filter((record) => record.type === 'compaction');
    expect(compactions).toEqual([expect.objectContaining({ from: 1, count: 3, summary: expect.stringMatching(/^\[Summary of the earlier conversation\]\n/) })]);
    expect(existsSync(payload.transcript_path)).toBe(true);
  }, 120_000);

  it('a PreCompact hook that exits 2 stops /compact, and its reason is shown; nothing is recorded', async () => {
    const { sandbox: s } = sandboxWithPreCompact('cat > /dev/null\necho "not now: the tests are running" >&2\nexit 2');
    terminal = startTerminal([], s.workspace, s.env);
    const t = terminal;
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await say(t, 'first message', 'second message', 'third message');
    await t.type('/compact');
    await t.waitFor(/\[compact\] not compacted: a PreCompact hook stopped it: not now: the tests are running/);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
    expect(sessionRecords(s.workspace).filter((record) => record.type === 'compaction')).toEqual([]);
  }, 120_000);

  it('past "compact.auto" of "compact.contextWindow" the conversation compacts on its own, firing PreCompact with trigger auto', async () => {
    const { sandbox: s } = sandboxWithPreCompact('cat >> "$WEIR_PROJECT_DIR/pre-compact.jsonl"\necho >> "$WEIR_PROJECT_DIR/pre-compact.jsonl"');
    const config = join(s.home, 'small-window.json');
    // 50% of 100 tokens: the system prompt alone (about 80 tokens at 4 characters a token) is over it, so
    // the first call of a turn compacts once there is something to summarise: before the fourth
    // prompt's (the last two steps are kept, and fewer than two messages come before them until then).
    put(config, { compact: { auto: 0.5, contextWindow: 100 } });
    terminal = startTerminal(['--config', config], s.workspace, s.env);
    const t = terminal;
    await t.waitFor(/\[session\] \S+ new[\s\S]*^> /m);
    await t.type('/model');
    await t.waitFor(/\[model\] automatic compaction at 50 tokens \(50% of a 100-token context window\)/);
    await say(t, 'first message', 'second message', 'third message');
    expect(existsSync(join(s.workspace, 'pre-compact.jsonl'))).toBe(false);
    await say(t, 'fourth message');
    await t.waitFor(/\[compact\] the conversation passed the compaction limit: 3 earlier messages became a summary/);
    const payloads = readFileSync(join(s.workspace, 'pre-compact.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(payloads).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' })]);
    await t.type('/exit');
    await t.waitFor(/WEIR EXITED 0/);
    expect(sessionRecords(s.workspace).filter((record) => record.type === 'compaction')).toHaveLength(1);
  }, 120_000);
});
