import { createHarness, type Harness, type Logger } from '@weir/core';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServer } from '../src/index.js';
import { childrenOfThisProcess, fixture, NODE } from './servers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  expect(childrenOfThisProcess()).toEqual([]);
});

function recordingLogger(lines: string[]): Logger {
  const record = (first: unknown, message?: unknown) => {
    lines.push(typeof first === 'string' ? first : String(message));
  };
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: record, error: record, child: () => logger };
  return logger;
}

describe('one odd entry does not break the server', () => {
  it('adapts inputSchema {}, skips {type:"string"} and a nameless tool with one-line warnings, keeps the rest', async () => {
    const warnings: string[] = [];
    harness = createHarness({ logger: recordingLogger(warnings) });
    await harness.use(mcpServer({ name: 'odd', command: NODE, args: [fixture('scripted-server.mjs'), '--odd-tools'], tiers: { '*': 'read-only' } }));
    const names = harness.tools.names();
    expect(names).toEqual(expect.arrayContaining(['odd__echo', 'odd__bare', 'odd__listy', 'odd__mixed']));
    expect(names).not.toContain('odd__stringy');
    expect(harness.tools.get('odd__bare')!.parameters).toMatchObject({ type: 'object' });
    expect(harness.tools.get('odd__listy')!.output?.schema).toBeUndefined();
    expect(await harness.executeToolCall({ id: '1', name: 'odd__bare', arguments: {} })).toMatchObject({ ok: true, content: 'bare ran' });
    expect(await harness.executeToolCall({ id: '2', name: 'odd__listy', arguments: {} })).toMatchObject({ ok: true, content: 'listy ran' });
    expect(warnings.find((line) => line.includes('"stringy"'))).toMatch(/skipped the MCP tool "stringy": its input schema is of type "string"/);
    expect(warnings.find((line) => line.includes('without a name'))).toMatch(/skipped the MCP tool \(a tool without a name\)/);
    expect(warnings.find((line) => line.includes('"bare"'))).toMatch(/adapted the MCP tool "bare"/);
    expect(warnings.find((line) => line.includes('"listy"'))).toMatch(/output schema is not an object schema/);
    for (const line of warnings) expect(line).not.toContain('\n');
  });

  it('an unknown content block becomes a note; the known blocks around it are kept', async () => {
    harness = createHarness();
    await harness.use(mcpServer({ name: 'odd', command: NODE, args: [fixture('scripted-server.mjs'), '--odd-tools'], tiers: { '*': 'read-only' } }));
    const result = await harness.executeToolCall({ id: '1', name: 'odd__mixed', arguments: {} });
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toEqual([
      { type: 'text', text: 'before' },
      { type: 'text', text: '[a content block of type "hologram" the harness does not know; left out]' },
      { type: 'image', data: 'AAAA', mediaType: 'image/png' },
      { type: 'text', text: '[an image content block without a valid data; left out]' },
    ]);
  });
});
