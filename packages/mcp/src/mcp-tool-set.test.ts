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
  it('registers <server>__<tool>, mapping characters weir does not allow, and skips what it cannot name', () => {
    const { harness, set } = setUp();
    set.replace([info('read.file'), info('x'.repeat(70)), info('read_file'), info('task', { execution: { taskSupport: 'required' } })]);
    // "read.file" maps to srv__read_file; the real "read_file" then collides and is skipped.
    expect(harness.tools.names()).toEqual(['srv__read_file']);
    expect(set.names()).toEqual(['srv__read_file']);
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
