import { readFile, rm, symlink } from 'node:fs/promises';
import { definePlugin, type ToolExecution } from '@weir/core';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

describe('protected paths', () => {
  const ws = useWorkspace();

  it('asks approval with the exact arguments and a reason, and writes only when allowed', async () => {
    const h = await ws.harness({ approver: (request) => (request.arguments.content === 'yes' ? { decision: 'allow' } : { decision: 'deny', message: 'not now' }) });
    const denied = await h.call('write_file', { path: '.vscode/tasks.json', content: 'no' });
    expect(denied.ok ? undefined : denied.error).toMatchObject({ code: 'DENIED', message: expect.stringContaining('not now') });
    expect(await exists(ws.fx.inRoot('.vscode/tasks.json'))).toBe(false);
    expect(await h.call('write_file', { path: '.vscode/tasks.json', content: 'yes' })).toMatchObject({ ok: true });
    expect(h.approvals.map((request) => [request.toolName, request.tier, request.arguments])).toEqual([
      ['write_file', 'write', { path: '.vscode/tasks.json', content: 'no' }],
      ['write_file', 'write', { path: '.vscode/tasks.json', content: 'yes' }],
    ]);
    expect(h.approvals[0]?.reason).toMatch(/".vscode\/tasks.json", a protected path \(\.vscode\)/);
  });

  it('needs no approval to read or list protected paths, nor to write elsewhere', async () => {
    await ws.fx.file('.git/config', '[core]\n');
    const h = await ws.harness();
    expect(await h.call('read_file', { path: '.git/config' })).toMatchObject({ ok: true });
    expect(await h.call('write_file', { path: 'git/config', content: 'not protected' })).toMatchObject({ ok: true });
    expect(await h.call('write_file', { path: '.github/ISSUE_TEMPLATE/bug.md', content: 'x' })).toMatchObject({ ok: true });
  });

  it("asks for every path of core's one list, those tools-shell and safety protected too", async () => {
    const h = await ws.harness();
    for (const path of ['package.json', 'web/package.json', '.npmrc', '.github/workflows/ci.yml', '.devcontainer/devcontainer.json', '.pre-commit-config.yaml', 'team.code-workspace']) {
      const result = await h.call('write_file', { path, content: 'x' });
      expect(result.ok ? 'ok' : result.error.code, path).toBe('DENIED');
      expect(await exists(ws.fx.inRoot(path)), path).toBe(false);
    }
  });

  it('adds the protect option: names at any depth, paths from the root', async () => {
    const h = await ws.harness({ protect: ['secrets', 'config/prod/'] });
    const codes = async (path: string) => {
      const result = await h.call('write_file', { path, content: 'x' });
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await codes('a/SECRETS/key')).toBe('DENIED');
    expect(await codes('config/prod/db.json')).toBe('DENIED');
    expect(await codes('config/prod')).toBe('DENIED');
    expect(await codes('other/config/prod/db.json')).toBe('ok');
    expect(await codes('config/production.json')).toBe('ok');
  });

  it('matches the canonical path too: a link to .git, and .git as a link', async () => {
    await ws.fx.file('.git/hooks/.keep', '');
    await ws.fx.link('g', '.git');
    await ws.fx.file('gitdata/hooks/.keep', '');
    const h = await ws.harness();
    const viaLink = await h.call('write_file', { path: 'g/hooks/pre-commit', content: 'x' });
    expect(viaLink.ok ? undefined : viaLink.error.code).toBe('DENIED');
    await rm(ws.fx.inRoot('.git'), { recursive: true });
    await symlink('gitdata', ws.fx.inRoot('.git'));
    const realDirectory = await h.call('write_file', { path: 'gitdata/hooks/pre-commit', content: 'x' });
    expect(realDirectory.ok ? undefined : realDirectory.error.code).toBe('DENIED');
    expect(await exists(ws.fx.inRoot('gitdata/hooks/pre-commit'))).toBe(false);
  });

  it('refuses when a link is swapped between the guard and the body (unprotected -> protected)', async () => {
    await ws.fx.file('docs/.keep', '');
    await ws.fx.file('.git/hooks/.keep', '');
    await ws.fx.link('target', 'docs');
    const h = await ws.harness();
    // A guard added after tools-fs's: it runs after it, and swaps the link before the body runs.
    await h.harness.use(
      definePlugin({
        name: 'swapper',
        setup(ctx) {
          ctx.guards.add(async () => {
            await rm(ws.fx.inRoot('target'));
            await symlink('.git/hooks', ws.fx.inRoot('target'));
            return undefined;
          });
        },
      }),
    );
    const result = await h.call('write_file', { path: 'target/pre-commit', content: 'evil' });
    expect(result.ok ? undefined : result.error.code).toBe('PROTECTED_PATH');
    expect(await exists(ws.fx.inRoot('.git/hooks/pre-commit'))).toBe(false);
  });

  it('refuses when a link is swapped during approval (approved path -> another protected path)', async () => {
    await ws.fx.file('.vscode/.keep', '');
    await ws.fx.file('.git/hooks/.keep', '');
    await ws.fx.link('cfg', '.vscode');
    const h = await ws.harness({
      approver: async () => {
        await rm(ws.fx.inRoot('cfg'));
        await symlink('.git/hooks', ws.fx.inRoot('cfg'));
        return { decision: 'allow' };
      },
    });
    const result = await h.call('write_file', { path: 'cfg/pre-commit', content: 'evil' });
    expect(h.approvals[0]?.reason).toContain('.vscode/pre-commit');
    expect(result.ok ? undefined : result.error.code).toBe('PROTECTED_PATH');
    expect(await exists(ws.fx.inRoot('.git/hooks/pre-commit'))).toBe(false);
  });

  it('refuses a protected write when the body is run without the pipeline (no guard asked)', async () => {
    const h = await ws.harness();
    const tool = h.harness.tools.get('write_file')!;
    const exec: ToolExecution = { signal: new AbortController().signal, callId: 'direct', callKey: 'direct-key', run: { id: 'direct-run' }, toolName: 'write_file', attempt: 1, logger: h.harness.logger, sandbox: undefined, progress: () => undefined };
    await expect(tool.execute({ path: '.weir/settings.json', content: '{}' }, exec)).rejects.toMatchObject({ code: 'PROTECTED_PATH' });
    await expect(tool.execute({ path: 'plain.txt', content: 'ok' }, exec)).resolves.toMatchObject({ path: 'plain.txt' });
    expect(await exists(ws.fx.inRoot('.weir/settings.json'))).toBe(false);
  });
});
