import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';
import { createHarness, definePlugin, type ToolResult } from '@weir/core';
import { BUILTIN_TOOL_MAPPINGS, commandHooks, type HookEventResult, type HookRunRecord } from '@weir/hooks';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { FETCH_URL_MAPPING, standInTools, type Ran } from './support/stand-in-tools.js';

const fixtures = sharedFixture('claude-ecosystem', 'the 25 shared hook cases (@weir/hooks)');
const replayer = fileURLToPath(new URL('./support/replay-hook.cjs', import.meta.url));

interface Input {
  description: string;
  stdin: Record<string, any>;
  env?: Record<string, string | null>;
  setup?: string[];
  expected: { exitCode: number; decision: string; reasonContains?: string; systemMessageContains?: string; additionalContextContains?: string; updatedInput?: Record<string, unknown>; nonBlockingError?: boolean };
}
interface Case {
  id: string;
  event: string;
  settings: { hooks: unknown };
  layout: { plugin?: string; project?: string; home?: string };
  fixtureRoot: string;
  env: Record<string, string | null>;
  setup: string[];
  inputs: Input[];
}

const cases: { file: string; data: Case }[] = fixtures === undefined ? [] : readdirSync(join(fixtures, 'cases')).sort().map((name) => ({ file: join(fixtures, 'cases', name), data: JSON.parse(readFileSync(join(fixtures, 'cases', name), 'utf8')) }));
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'weir-hookcases-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where the command's script lies once `${CLAUDE_PLUGIN_ROOT}`, `$CLAUDE_PROJECT_DIR`, `~` or the project folder is resolved. */
function scriptPaths(command: string, places: { plugin: string; project: string; home: string }): string[] {
  const found: string[] = [];
  for (const match of command.matchAll(/"?\$\{?(CLAUDE_PLUGIN_ROOT|CLAUDE_PROJECT_DIR)\}?"?(\/[^\s"]+)|~(\/[^\s"]+)|(?:^|\s)(\.claude\/[^\s"]+)/g)) {
    if (match[1] === 'CLAUDE_PLUGIN_ROOT') found.push(join(places.plugin, match[2]!));
    else if (match[1] === 'CLAUDE_PROJECT_DIR') found.push(join(places.project, match[2]!));
    else if (match[3] !== undefined) found.push(join(places.home, match[3]));
    else found.push(join(places.project, match[4]!));
  }
  return found;
}

/** Our own hook at the published path, in the runtime the published command starts it with. */
function installShim(path: string, command: string, crlf: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  const runtime = /(^|\s)node\s/.test(command) ? 'node' : /(^|\s)python3\s/.test(command) ? 'python3' : 'shell';
  const text =
    runtime === 'node'
      ? `require(${JSON.stringify(replayer)});\n`
      : runtime === 'python3'
        ? `import os\nos.execvp("node", ["node", ${JSON.stringify(replayer)}])\n`
        : `#!/bin/bash\nexec node ${JSON.stringify(replayer)}\n`;
  // As published, some scripts have CRLF line endings: "/bin/bash\r" is not found, exit 127.
  writeFileSync(path, crlf ? text.replace(/\n/g, '\r\n') : text);
  chmodSync(path, 0o755);
}

/** The weir call whose Claude Code view is the recorded stdin (tool_name and tool_input). */
function weirCall(stdin: Record<string, any>, project: string): { name: string; arguments: Record<string, unknown> } {
  const input = stdin.tool_input as Record<string, any>;
  const context = { projectDir: project };
  switch (stdin.tool_name) {
    case 'Bash':
    case 'run_shell_command':
      return { name: 'run_command', arguments: { command: input.command } };
    case 'Read':
      return { name: 'read_file', arguments: BUILTIN_TOOL_MAPPINGS.read_file!.fromInput!(input, context) };
    case 'Write':
      return { name: 'write_file', arguments: BUILTIN_TOOL_MAPPINGS.write_file!.fromInput!(input, context) };
    case 'Edit':
      return { name: 'edit_file', arguments: BUILTIN_TOOL_MAPPINGS.edit_file!.fromInput!(input, context) };
    case 'MultiEdit':
      return { name: 'edit_file', arguments: BUILTIN_TOOL_MAPPINGS.edit_file!.fromInput!({ file_path: input.file_path, ...input.edits[0] }, context) };
    case 'Glob':
      return { name: 'find_files', arguments: BUILTIN_TOOL_MAPPINGS.find_files!.fromInput!(input, context) };
    case 'Grep':
      return { name: 'search_files', arguments: BUILTIN_TOOL_MAPPINGS.search_files!.fromInput!(input, context) };
    case 'WebFetch':
      return { name: 'fetch_url', arguments: { url: input.url } };
    default:
      if (String(stdin.tool_name).startsWith('mcp__')) return { name: String(stdin.tool_name).slice('mcp__'.length), arguments: input };
      throw new Error(`no weir tool for ${stdin.tool_name}`);
  }
}

const TOOL_EVENTS = new Set(['PreToolUse', 'BeforeTool', 'PostToolUse', 'PostToolUseFailure']);

// Each input runs in a folder of its own, so they run side by side: most of the time is process starts.
describe.skipIf(fixtures === undefined).concurrent('the shared hook cases decide under weir as recorded', () => {
  it('there are 25 setups with 86 inputs', ({ expect }) => {
    expect(cases).toHaveLength(25);
    expect(cases.reduce((sum, c) => sum + c.data.inputs.length, 0)).toBe(86);
  });

  for (const { file, data } of cases) {
    describe(data.id, () => {
      data.inputs.forEach((input, index) => {
        it(input.description, async ({ expect }) => {
          const root = join(scratch, `${data.id}-${index}`);
          const places = { plugin: join(root, 'plugin'), project: join(root, 'project'), home: join(root, 'home') };
          for (const dir of Object.values(places)) mkdirSync(dir, { recursive: true });
          const local = (text: string) => text.split(data.fixtureRoot).join(root);
          // The settings file as published, read unchanged.
          const published = join(fixtures!, 'hooks', data.id, 'settings.json');
          const settingsFile = existsSync(published) ? published : join(fixtures!, 'hooks', data.id, 'plugin', 'hooks', 'hooks.json');
          const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
          const commands = Object.values(settings.hooks).flatMap((groups) => groups.flatMap((group) => group.hooks.map((hook) => hook.command)));
          const crlf = input.description.startsWith('AS PUBLISHED (CRLF)');
          const shims = commands.flatMap((command) => scriptPaths(command, places).map((path) => ({ path, command })));
          for (const shim of shims) installShim(shim.path, shim.command, crlf);

          const env: NodeJS.ProcessEnv = { ...process.env, HOME: places.home, HOOKCASE_FILE: file, HOOKCASE_INPUT: String(index), HOOKCASE_ROOT: root, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
          for (const [name, value] of Object.entries({ ...data.env, ...input.env })) {
            if (value === null) delete env[name];
            else env[name] = local(value);
          }
          // A published command with no script of its own (inline shell) runs for real, on the case's setup.
          if (shims.length === 0) for (const line of [...data.setup, ...(input.setup ?? [])]) execFileSync('/bin/sh', ['-c', line], { cwd: places.project, env, stdio: 'ignore' });

          const runs: HookRunRecord[] = [];
          const hooks = commandHooks({
            projectDir: places.project,
            env,
            layers: [{ name: 'claude-project', file: settingsFile, hooks: settings.hooks, trusted: true, ...(data.layout.plugin === undefined ? {} : { pluginRoot: places.plugin }) }],
            tools: FETCH_URL_MAPPING,
            session: () => ({ id: input.stdin.session_id, transcriptPath: local(input.stdin.transcript_path) }),
            onRun: (run) => runs.push(run),
          });
          expect(hooks.hooks.every((hook) => hook.skipped === undefined)).toBe(true);
          const expected = input.expected;
          const systemMessages = () => runs.map((run) => run.outcome.systemMessage ?? '').join('\n');
          const stdin = JSON.parse(local(JSON.stringify(input.stdin)));

          if (TOOL_EVENTS.has(data.event)) {
            const ran: Ran = [];
            const asked: (string | undefined)[] = [];
            const harness = createHarness();
            const failing = data.event === 'PostToolUseFailure';
            await harness.use(standInTools(ran, () => (failing ? 1 : 0), () => stdin.error ?? ''));
            await harness.use(hooks.plugin);
            await harness.use(definePlugin({ name: 'approver', setup: (ctx) => void ctx.approval.setResponder((request) => (asked.push(request.reason), { decision: 'deny', message: 'the person said no' })) }));
            const call = weirCall(stdin, places.project);
            const result: ToolResult = await harness.executeToolCall({ id: stdin.tool_use_id ?? 'call_1', ...call });
            await harness.close();
            const pre = data.event === 'PreToolUse' || data.event === 'BeforeTool';
            if (pre && expected.nonBlockingError) {
              // Claude Code lets the call through; weir fails closed and says what happened.
              expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
              expect(result.content).toContain(`exited ${expected.exitCode}`);
              expect(result.content).toContain(settingsFile);
              expect(ran).toEqual([]);
            } else if (pre && expected.decision === 'deny') {
              expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
              expect(result.content).toContain(expected.reasonContains ?? expected.systemMessageContains ?? '');
              if (expected.systemMessageContains) expect(systemMessages() + result.content).toContain(expected.systemMessageContains);
              expect(ran).toEqual([]);
            } else if (pre && expected.decision === 'ask') {
              expect(asked).toHaveLength(1);
              expect(asked[0]).toContain(expected.reasonContains ?? '');
              expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
              expect(ran).toEqual([]);
            } else if (pre) {
              expect(result).toMatchObject({ ok: true });
              expect(asked).toEqual([]);
              expect(ran).toHaveLength(1);
              if (expected.updatedInput !== undefined) {
                const back = weirCall({ ...stdin, tool_input: { ...stdin.tool_input, ...expected.updatedInput } }, places.project);
                expect(ran[0]!.args).toEqual(back.arguments);
              } else expect(ran[0]!.args).toEqual(call.arguments);
              if (expected.systemMessageContains) expect(systemMessages()).toContain(expected.systemMessageContains);
            } else {
              expect(ran).toHaveLength(1);
              if (expected.decision === 'block') {
                expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED' } });
                expect(result.content).toContain(expected.reasonContains ?? '');
              } else {
                expect(result).toMatchObject({ ok: true });
                if (expected.additionalContextContains) expect(result.content).toContain(expected.additionalContextContains);
                else expect(result.content).not.toMatch(/hook/i);
              }
            }
            return;
          }

          let outcome: HookEventResult;
          switch (data.event) {
            case 'UserPromptSubmit':
              outcome = await hooks.events.userPromptSubmit(stdin.prompt);
              break;
            case 'Stop':
              outcome = await hooks.events.stop(stdin.stop_hook_active);
              break;
            case 'SessionStart':
              outcome = await hooks.events.sessionStart(stdin.source);
              break;
            case 'Notification':
              outcome = await hooks.events.notification(stdin.message, stdin.notification_type);
              break;
            default:
              outcome = await hooks.events.fire(data.event as never, { file_path: stdin.file_path, load_reason: stdin.load_reason });
          }
          expect(outcome.outcomes.length).toBeGreaterThan(0);
          expect(outcome.blocked).toBe(expected.decision === 'block');
          if (expected.decision === 'block') expect(outcome.reason).toContain(expected.reasonContains ?? '');
          if (expected.systemMessageContains) expect(systemMessages()).toContain(expected.systemMessageContains);
          if (expected.additionalContextContains) expect(outcome.context).toContain(expected.additionalContextContains);
          else expect(outcome.context).toBeUndefined();
          if (expected.nonBlockingError) expect(outcome.outcomes[0]!.failure).toContain(`exited ${expected.exitCode}`);
        });
      });
    });
  }
});
