import { createHarness, isHarnessError, type ToolDefinition } from '@weir/core';
import { describe, expect, it } from 'vitest';
import type { McpToolInfo } from './describe-tool.js';
import { McpToolSet } from './mcp-tool-set.js';

const info = (name: string, extra: Partial<McpToolInfo> = {}): McpToolInfo => ({ name, description: `tool ${name}`, inputSchema: { type: 'object' }, ...extra });
const build = (tool: McpToolInfo, weirName: string): ToolDefinition => ({
  name: weirName,
  description: tool.description!,
  parameters: tool.inputSchema,
  tier: 'read-only',
  execute: () => tool.name,
});

function setUp() {
  const harness = createHarness();
  const set = new McpToolSet('srv', (tool) => harness.tools.register(tool), build, harness.logger);
  return { harness, set };
}

describe('McpToolSet', () => {
  it('registers <server>__<tool>; a name weir does not allow becomes a legal, stable, distinct one; task-only tools are skipped when the server runs no tasks', () => {
    const { harness, set } = setUp();
    const long = 'x'.repeat(70);
    set.replace([info('read.file'), info(long), info('read_file'), info('task', { execution: { taskSupport: 'required' } })]);
    const names = harness.tools.names();
    // "read.file" and "read_file" no longer collide: the mapped one carries a hash of the original.
    expect(names).toContain('srv__read_file');
    const dotted = names.find((name) => name.startsWith('srv__read_file_'))!;
    expect(dotted).toMatch(/^srv__read_file_[0-9a-f]+$/);
    const overlong = names.find((name) => name.startsWith('srv__xxx'))!;
    expect(overlong.length).toBeLessThanOrEqual(64);
    expect(names).toHaveLength(3);
    expect(harness.tools.get(dotted)!.description).toBe('tool read.file');
    // The same server tools get the same names on the next start.
    const again = setUp();
    again.set.replace([info('read.file'), info(long)]);
    expect(again.harness.tools.names().sort()).toEqual([dotted, overlong].sort());
  });

  it('skips a tool whose schema does not compile, keeping the others', () => {
    const { harness, set } = setUp();
    set.replace([info('bad', { inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }), info('good')]);
    expect(harness.tools.names()).toEqual(['srv__good']);
  });

  it('swaps the whole set; the old definitions are gone and the new ones are in', () => {
    const { harness, set } = setUp();
    set.replace([info('a'), info('b')]);
    const before = harness.tools.get('srv__a');
    set.replace([info('a', { description: 'new a' }), info('c')]);
    expect(harness.tools.names()).toEqual(['srv__a', 'srv__c']);
    expect(harness.tools.get('srv__a')).not.toBe(before);
    expect(harness.tools.get('srv__a')!.description).toBe('new a');
  });

  it('a name another owner holds throws DUPLICATE_TOOL and the previous set stays', () => {
    const { harness, set } = setUp();
    set.replace([info('a')]);
    harness.tools.register({ ...build(info('taken'), 'srv__taken') });
    let caught: unknown;
    try {
      set.replace([info('b'), info('taken')]);
    } catch (error) {
      caught = error;
    }
    expect(isHarnessError(caught, 'DUPLICATE_TOOL')).toBe(true);
    expect(harness.tools.names().sort()).toEqual(['srv__a', 'srv__taken']);
    expect(set.names()).toEqual(['srv__a']);
  });

  it('clear removes every tool of the set and nothing else', () => {
    const { harness, set } = setUp();
    harness.tools.register(build(info('other'), 'other'));
    set.replace([info('a')]);
    set.clear();
    expect(harness.tools.names()).toEqual(['other']);
  });
});
