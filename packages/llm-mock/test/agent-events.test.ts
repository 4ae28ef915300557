import { describe, expect, it } from 'vitest';
import { createAgent, createHarness, type AgentEvent } from '@weir/core';
import { createMockModel, createScriptedModel } from '@weir/llm-mock';
import { harnessWith, readFileTool } from './support.js';

/** Events as short strings: the order is what a UI relies on. */
const describeEvent = (event: AgentEvent): string => {
  switch (event.type) {
    case 'turn-start':
      return `turn-start ${event.text}`;
    case 'model-call-start':
      return `model-call-start ${event.step}`;
    case 'text-delta':
      return `text-delta ${event.step}`;
    case 'model-call-end':
      return `model-call-end ${event.step} ${event.response.finishReason}`;
    case 'tool-start':
      return `tool-start ${event.step} ${event.call.id}`;
    case 'tool-progress':
      return `tool-progress ${event.step} ${event.callId}`;
    case 'tool-result':
      return `tool-result ${event.step} ${event.call.id} ${event.result.ok ? 'ok' : event.result.error.code}`;
    case 'turn-end':
      return `turn-end ${event.result.stopReason}`;
    case 'compaction':
      return `compaction ${event.step} ${event.replaced}`;
    case 'subagent':
      return `subagent ${event.callId} ${describeEvent(event.event)}`;
  }
};

describe('agent loop: events', () => {
  it('tells a UI about the turn, each model call, each tool call, and streamed text', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel(
      [
        { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }, { id: 'c2', name: 'read_file', arguments: { path: 'nope' } }] },
        { text: 'The file says alpha.' },
      ],
      { stream: true },
    );
    const events: AgentEvent[] = [];
    const result = await createAgent({ model, harness }).turn('read', { onEvent: (event) => events.push(event) });

    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.text).join('')).toBe('The file says alpha.');
    const outline = events.map(describeEvent).filter((line, index, all) => !(line.startsWith('text-delta') && all[index - 1] === line));
    expect(outline).toEqual([
      'turn-start read',
      'model-call-start 1',
      'model-call-end 1 tool_calls',
      'tool-start 1 c1',
      'tool-start 1 c2',
      'tool-result 1 c1 ok',
      'tool-result 1 c2 NOT_FOUND',
      'model-call-start 2',
      'text-delta 2',
      'model-call-end 2 stop',
      'turn-end stop',
    ]);
    expect(events.at(-1)).toEqual({ type: 'turn-end', result });
  });

  it('calls complete, not stream, when nobody listens or stream is false', async () => {
    const model = createMockModel();
    let streamed = 0;
    const counting = { ...model, stream: (request: Parameters<NonNullable<typeof model.stream>>[0]) => (streamed++, model.stream!(request)) };
    const agent = createAgent({ model: counting, harness: createHarness() });
    await agent.turn('hello');
    const events: AgentEvent[] = [];
    await agent.turn('hello', { onEvent: (event) => events.push(event), stream: false });
    expect(streamed).toBe(0);
    expect(events.some((event) => event.type === 'text-delta')).toBe(false);
    await agent.turn('hello', { onEvent: () => {} });
    expect(streamed).toBe(1);
  });

  it('announces NOT_EXECUTED answers without a tool-start', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }], finishReason: 'length' }]);
    const lines: string[] = [];
    await createAgent({ model, harness }).turn('read', { onEvent: (event) => lines.push(describeEvent(event)) });
    expect(lines).toEqual(['turn-start read', 'model-call-start 1', 'model-call-end 1 length', 'tool-result 1 c1 NOT_EXECUTED', 'turn-end length']);
  });

  it('goes on when a listener throws or rejects, and logs both on the harness logger', async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (fields: unknown) => void warnings.push((fields as { event: string }).event),
      error: () => {},
      child: () => logger,
    };
    const harness = createHarness({ logger });
    harness.tools.register(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'fine' }]);
    const agent = createAgent({ model, harness });
    let calls = 0;
    const result = await agent.turn('read', {
      onEvent: (event) => {
        calls += 1;
        if (event.type === 'tool-start') throw new Error('UI bug');
        if (event.type === 'tool-result') return Promise.reject(new Error('async UI bug')) as unknown as void;
      },
    });
    expect(result).toMatchObject({ stopReason: 'stop', text: 'fine' });
    expect(calls).toBeGreaterThan(4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual(['tool-start', 'tool-result']);
  });
});
