import { describe, expect, it } from 'vitest';
import { createHarness, definePlugin, defineTool, isHarnessError, ToolRegistry, type GuardCall, type ToolFiles } from '@weir/core';

const tool = (name: string, files?: ToolFiles) =>
  defineTool({
    name,
    description: `test tool ${name}`,
    tier: 'read-only',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
    ...(files === undefined ? {} : { files }),
    execute: () => 'ok',
  });

describe('what tools declare about files', () => {
  it('the registry keeps the action and the path arguments, every one in object form', () => {
    const registry = new ToolRegistry();
    registry.register(tool('reader', { action: 'read', paths: ['path', { argument: 'edits[].file_path' }, { argument: 'root', kind: 'directory', default: '.' }] }));
    expect(registry.get('reader')!.files).toEqual({
      action: 'read',
      paths: [{ argument: 'path' }, { argument: 'edits[].file_path' }, { argument: 'root', kind: 'directory', default: '.' }],
    });
    registry.register(tool('plain'));
    expect(registry.get('plain')!.files).toBeUndefined();
  });

  it.each([
    ['an unknown action', { action: 'execute', paths: [] }],
    ['paths that are not an array', { action: 'read', paths: 'path' }],
    ['a malformed argument place', { action: 'read', paths: ['a..b'] }],
    ['an unknown kind', { action: 'read', paths: [{ argument: 'path', kind: 'folder' }] }],
    ['a default that is not a string', { action: 'read', paths: [{ argument: 'path', default: 1 }] }],
    ['an unknown key', { action: 'read', paths: [], path: 'x' }],
  ])('refuses %s at registration (INVALID_TOOL)', (_name, files) => {
    let thrown: unknown;
    try {
      new ToolRegistry().register(tool('bad', files as never));
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown, 'INVALID_TOOL')).toBe(true);
  });
});

describe('where each tool comes from', () => {
  it('records the plugin, and the server for a tool a plugin brings from elsewhere; guards see both', async () => {
    const harness = createHarness();
    const seen: GuardCall[] = [];
    try {
      harness.tools.register(tool('direct'));
      await harness.use(
        definePlugin({
          name: 'mcp-bridge',
          setup(ctx) {
            ctx.tools.register(tool('own', { action: 'list', paths: ['path'] }));
            ctx.tools.register(tool('github__list_issues'), { server: 'github' });
            ctx.guards.add('recorder', (call) => {
              seen.push(call);
              return undefined;
            });
          },
        }),
      );
      expect(harness.tools.get('direct')!.source).toEqual({ plugin: undefined, server: undefined });
      expect(harness.tools.get('own')!.source).toEqual({ plugin: 'mcp-bridge', server: undefined });
      expect(harness.tools.get('github__list_issues')!.source).toEqual({ plugin: 'mcp-bridge', server: 'github' });
      await harness.executeToolCall({ id: 'a', name: 'github__list_issues', arguments: {} });
      await harness.executeToolCall({ id: 'b', name: 'own', arguments: { path: 'x' } });
      expect(seen.map((call) => [call.toolName, call.source, call.files?.action])).toEqual([
        ['github__list_issues', { plugin: 'mcp-bridge', server: 'github' }, undefined],
        ['own', { plugin: 'mcp-bridge', server: undefined }, 'list'],
      ]);
    } finally {
      await harness.close();
    }
  });

  it('refuses an empty server name', () => {
    let thrown: unknown;
    try {
      new ToolRegistry().register(tool('x'), { server: ' ' });
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown, 'INVALID_TOOL')).toBe(true);
  });
});
