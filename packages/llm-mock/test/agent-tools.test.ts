import { describe, expect, it } from 'vitest';
import { createAgent, type ToolMessage } from '@weir/core';
import { createScriptedModel } from '@weir/llm-mock';
import { gateTool, harnessWith, readFileTool } from './support.js';

describe('agent loop: tools', () => {
  it('runs a tool call and feeds the result back as a tool message', async () => {
    const runs: string[] = [];
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs));
    const model = createScriptedModel([{ toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'It says alpha.' }]);
    const agent = createAgent({ model, harness, system: 'Be brief.' });

    const result = await agent.turn('What is in a.txt?');

    expect(result).toMatchObject({ text: 'It says alpha.', stopReason: 'stop' });
    expect(result.steps).toHaveLength(2);
    expect(result.toolResults).toHaveLength(1);
    expect(result.toolResults[0]).toMatchObject({ ok: true, callId: 'c1', content: 'alpha' });
    expect(result.steps[0]!.toolResults).toEqual([result.toolResults[0]]);
    expect(runs).toEqual(['a.txt']);
    expect(agent.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in a.txt?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}', key: expect.any(String) }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'alpha', isError: false },
      { role: 'assistant', content: 'It says alpha.' },
    ]);
    // The second model call read the result.
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'alpha' });
    model.assertAllUsed();
  });

  it('sends the registry model view, the same frozen array every step', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'done' }]);
    await createAgent({ model, harness }).turn('go');
    const schemas = harness.tools.schemas();
    expect(model.requests[0]!.tools).toBe(schemas);
    expect(model.requests[1]!.tools).toBe(schemas);
    expect(Object.isFrozen(schemas)).toBe(true);
    expect(schemas.map((tool) => tool.name)).toEqual(['read_file']);
  });

  it('feeds a tool error back; the model reads it and adapts', async () => {
    const harness = harnessWith(readFileTool({ 'b.txt': 'beta' }));
    const model = createScriptedModel([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
      (request) => {
        const last = request.messages.at(-1) as ToolMessage;
        expect(last).toMatchObject({ role: 'tool', isError: true });
        expect(last.content).toContain('NOT_FOUND');
        return { toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] };
      },
      { text: 'Found beta instead.' },
    ]);
    const agent = createAgent({ model, harness });

    const result = await agent.turn('read missing.txt');

    expect(result.stopReason).toBe('stop');
    expect(result.toolResults.map((toolResult) => toolResult.ok)).toEqual([false, true]);
    expect(result.toolResults[0]).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const toolMessages = agent.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([
      expect.objectContaining({ isError: true, content: expect.stringContaining('missing.txt does not exist') }),
      expect.objectContaining({ isError: false, content: 'beta' }),
    ]);
    model.assertAllUsed();
  });

  it.each([
    ['a missing required property', {}],
    ['malformed JSON', '{"path": "a.txt"'],
    ['a property of the wrong type', { path: 42 }],
  ])('feeds invalid arguments (%s) back without running the body', async (_case, args) => {
    const runs: string[] = [];
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs));
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: args }] }, { text: 'I will fix the arguments.' }]);
    const agent = createAgent({ model, harness });

    const result = await agent.turn('read it');

    expect(runs).toEqual([]);
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', isError: true, content: expect.stringContaining('INVALID_ARGUMENTS') });
    expect(result).toMatchObject({ stopReason: 'stop', text: 'I will fix the arguments.' });
  });

  it('answers an unknown tool with TOOL_NOT_FOUND and goes on', async () => {
    const harness = harnessWith(readFileTool({}));
    const model = createScriptedModel([{ toolCalls: [{ name: 'delete_everything' }] }, { text: 'ok' }]);
    const result = await createAgent({ model, harness }).turn('go');
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect(result.stopReason).toBe('stop');
  });

  it('runs several calls of one answer through the pipeline, results in call order', async () => {
    const gate = gateTool();
    const harness = harnessWith(gate.tool);
    const ids = ['one', 'two', 'three'];
    const model = createScriptedModel([{ toolCalls: ids.map((id) => ({ id: `c-${id}`, name: 'gate', arguments: { id } })) }, { text: 'all done' }]);
    const agent = createAgent({ model, harness });

    const turn = agent.turn('run three');
    await Promise.all(ids.map((id) => gate.started(id)));
    // Finish in reverse order: the history must still follow the calls' order.
    gate.release('three');
    gate.release('two');
    gate.release('one');
    const result = await turn;

    expect(result.toolResults.map((toolResult) => toolResult.callId)).toEqual(['c-one', 'c-two', 'c-three']);
    expect(gate.log.slice(-3)).toEqual(['end three', 'end two', 'end one']);
    const toolMessages = agent.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual(['released one', 'released two', 'released three']);
    expect(gate.peak).toBe(3);
  });

  it('bounds the calls running at once with toolConcurrency', async () => {
    const gate = gateTool();
    const harness = harnessWith(gate.tool);
    const ids = ['a', 'b', 'c', 'd'];
    const model = createScriptedModel([{ toolCalls: ids.map((id) => ({ name: 'gate', arguments: { id } })) }, { text: 'done' }]);
    const turn = createAgent({ model, harness, toolConcurrency: 2 }).turn('run four');
    for (const id of ids) {
      await gate.started(id);
      gate.release(id);
    }
    const result = await turn;
    expect(gate.peak).toBe(2);
    expect(result.toolResults.map((toolResult) => toolResult.content)).toEqual(ids.map((id) => `released ${id}`));
  });

  it('runs tool calls present in an answer whose finish reason is stop', async () => {
    const runs: string[] = [];
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }, runs));
    const model = createScriptedModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], finishReason: 'stop' }, { text: 'ok' }]);
    await createAgent({ model, harness }).turn('go');
    expect(runs).toEqual(['a.txt']);
  });

  it('appends to one history across turns and never copies it per step', async () => {
    const harness = harnessWith(readFileTool({ 'a.txt': 'alpha' }));
    const seen: unknown[] = [];
    const capture = (request: { messages: unknown }) => {
      seen.push(request.messages);
      return {};
    };
    const model = createScriptedModel([
      (request) => (capture(request), { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }),
      (request) => (capture(request), { text: 'first' }),
      (request) => (capture(request), { text: 'second' }),
    ]);
    const agent = createAgent({ model, harness });
    await agent.turn('one');
    await agent.turn('two');
    expect(seen).toHaveLength(3);
    for (const messages of seen) expect(messages).toBe(agent.messages);
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(agent.messages.every((message) => Object.isFrozen(message))).toBe(true);
  });
});
