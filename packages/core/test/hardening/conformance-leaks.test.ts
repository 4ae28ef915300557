import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { definePlugin, defineTool } from '@weir/core';
import { assertPluginConformance } from '@weir/core/testing';

const tool = defineTool({
  name: 'ping',
  description: 'Answers pong; use it to check the plugin is loaded.',
  tier: 'read-only',
  parameters: { type: 'object', properties: {} },
  examples: [{ arguments: {} }],
  execute: () => 'pong',
});

describe('the conformance kit catches what leaks', () => {
  it.each([
    ['a timer', () => {
      const timer = setTimeout(() => undefined, 60_000);
      return () => clearTimeout(timer);
    }],
    ['an interval', () => {
      const timer = setInterval(() => undefined, 60_000);
      return () => clearInterval(timer);
    }],
    ['a socket server', () => {
      const server = createServer().listen(0, '127.0.0.1');
      return () => void server.close();
    }],
    ['a child process', () => {
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      return () => void child.kill('SIGKILL');
    }],
  ])('fails a plugin that leaves %s alive after unload', async (_what, leak) => {
    const cleanups: (() => void)[] = [];
    const leaky = definePlugin({ name: 'leaky', setup: (ctx) => {
      ctx.tools.register(tool);
      cleanups.push(leak());
    } });
    try {
      const error = await assertPluginConformance(leaky, { cycles: 1 }).catch((caught: unknown) => caught as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/left .*alive after unload/);
    } finally {
      cleanups.forEach((cleanup) => cleanup());
    }
  });

  it('passes a plugin that cleans up what it started', async () => {
    const tidy = definePlugin({ name: 'tidy', setup: (ctx) => {
      ctx.tools.register(tool);
      const timer = setInterval(() => undefined, 60_000);
      const server = createServer().listen(0, '127.0.0.1');
      ctx.onDispose(() => clearInterval(timer));
      ctx.onDispose(() => new Promise<void>((resolve) => server.close(() => resolve())));
    } });
    await expect(assertPluginConformance(tidy, { cycles: 2 })).resolves.toMatchObject({ plugin: 'tidy', examplesRun: 1 });
  });

  it("fails a plugin whose taps turn its own tools' example calls into HOOK_FAILED", async () => {
    const broken = definePlugin({ name: 'broken', setup: (ctx) => {
      ctx.tools.register(tool);
      ctx.hooks.postExecute.tap(() => {
        throw new Error('oops');
      });
    } });
    const error = await assertPluginConformance(broken, { cycles: 1 }).catch((caught: unknown) => caught as Error);
    expect((error as Error).message).toMatch(/HOOK_FAILED/);
  });
});
