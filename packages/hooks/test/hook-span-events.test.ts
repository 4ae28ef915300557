// Every hook run is a `weir.hook` span event on the span active where it runs (here an
// application's span around a turn), with the event, command, settings file, outcome and duration,
// and never the payload: the prompt, the answer and what the hook printed stay out of the trace.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createHarness } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { commandHooks, runTurnWithHooks } from '@weir/hooks';
import { layer, tempProject } from './support/hook-project.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  trace.disable();
  context.disable();
});
const projects: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  exporter.reset();
  for (const project of projects.splice(0)) await project.remove();
});

describe('hook runs in the trace', () => {
  it('a UserPromptSubmit and a Stop hook run are span events of the active span, without the payload', async () => {
    const p = await tempProject();
    projects.push(p);
    const settings = layer(p.dir, {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'cat > /dev/null; echo "context: SECRET-FROM-HOOK"' }] }],
      Stop: [{ hooks: [{ type: 'command', command: `echo '{"systemMessage":"SECRET-FROM-HOOK"}'` }] }],
    });
    const harness = createHarness();
    const hooks = commandHooks({ projectDir: p.dir, layers: [settings] });
    await harness.use(hooks.plugin);
    const agent = createAgent({ model: createScriptedModel([{ text: 'SECRET-ANSWER' }]), harness });

    await trace.getTracer('app').startActiveSpan('handle request', async (span) => {
      await runTurnWithHooks(agent, 'my password is SECRET-PROMPT', hooks.events);
      span.end();
    });

    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('handle request');
    const runs = span!.events.filter((event) => event.name === 'weir.hook');
    expect(runs.map((event) => event.attributes!['weir.hook.event'])).toEqual(['UserPromptSubmit', 'Stop']);
    for (const event of runs) {
      expect(event.attributes).toMatchObject({ 'weir.hook.source': settings.file, 'weir.hook.layer': 'project', 'weir.hook.decision': 'none', 'weir.hook.failed': false, 'weir.hook.status': 'exited', 'weir.hook.exit_code': 0, 'weir.duration_ms': expect.any(Number) });
    }
    // The command is the settings file's own text (as /hooks and the log lines show it).
    expect(runs[0]!.attributes!['weir.hook.command']).toBe('cat > /dev/null; echo "context: SECRET-FROM-HOOK"');
    // What the hooks were sent and answered is content: not in the trace.
    const text = JSON.stringify(span!.events.map((event) => ({ ...event, attributes: { ...event.attributes, 'weir.hook.command': '' } })));
    expect(text).not.toContain('SECRET');
    await harness.close();
  });

  it('a failed and a blocking run say so; with no active span there is nothing to write to and nothing breaks', async () => {
    const p = await tempProject();
    projects.push(p);
    const lines: { level: string; fields: Record<string, unknown> }[] = [];
    const logger = { info: (fields: Record<string, unknown>) => void lines.push({ level: 'info', fields }), warn: (fields: Record<string, unknown>) => void lines.push({ level: 'warn', fields }), error: () => {}, debug: () => {}, child: () => logger };
    const settings = layer(p.dir, { SessionEnd: [{ hooks: [{ type: 'command', command: 'exit 7' }] }], Notification: [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] });
    const hooks = commandHooks({ projectDir: p.dir, layers: [settings], logger: logger as never });
    await trace.getTracer('app').startActiveSpan('session', async (span) => {
      await hooks.events.sessionEnd('other');
      await hooks.events.notification('hello', 'idle_prompt');
      span.end();
    });
    const events = exporter.getFinishedSpans()[0]!.events;
    expect(events.map((event) => [event.attributes!['weir.hook.event'], event.attributes!['weir.hook.failed'], event.attributes!['weir.hook.exit_code'], event.attributes!['weir.hook.decision']])).toEqual([
      ['SessionEnd', true, 7, 'none'],
      ['Notification', false, 2, 'block'],
    ]);
    expect(events[0]!.attributes!['weir.hook.effect']).toBe('failed: logged, going on');
    // And a log line each, with the same facts.
    expect(lines).toEqual([
      { level: 'warn', fields: expect.objectContaining({ event: 'SessionEnd', command: 'exit 7', file: settings.file, exitCode: 7, durationMs: expect.any(Number) }) },
      { level: 'info', fields: expect.objectContaining({ event: 'Notification', file: settings.file, decision: 'block', effect: 'blocked' }) },
    ]);
    expect((await hooks.events.sessionEnd('other')).outcomes).toHaveLength(1);
  });
});
