// The settings files' `hooks` sections and the compat switch: read by the one settings reader,
// handed to @weir/hooks as layers marked trusted or not.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookLayers, loadSafetySettings } from '@weir/safety';

let root: string;
let project: string;
const user = () => join(root, 'home', 'settings.json');
const hook = (command: string) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });

async function put(file: string, value: unknown): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'weir-hook-settings-')));
  project = join(root, 'project');
  await put(join(project, '.weir', 'settings.json'), { hooks: hook('project-hook') });
  // Claude Code's files as people commit them: permissions, env and all, read unchanged.
  await put(join(project, '.claude', 'settings.json'), { permissions: { allow: ['Bash(npm test)'] }, env: { X: '1' }, hooks: hook('claude-hook') });
  await put(join(project, '.claude', 'settings.local.json'), { hooks: hook('local-hook'), model: 'opus' });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('hooks in the layered settings', () => {
  it("reads the user's and the project's hooks; the project's are untrusted until the folder is", async () => {
    await put(user(), { hooks: hook('user-hook') });
    let layers = hookLayers(await loadSafetySettings({ user: user(), project }));
    expect(layers.map((layer) => [layer.name, layer.trusted])).toEqual([
      ['user', true],
      ['project', false],
    ]);
    expect(layers[1]!.file).toBe(join(project, '.weir', 'settings.json'));
    await put(user(), { hooks: hook('user-hook'), trustedFolders: [project] });
    layers = hookLayers(await loadSafetySettings({ user: user(), project }));
    expect(layers.map((layer) => [layer.name, layer.trusted])).toEqual([
      ['user', true],
      ['project', true],
    ]);
  });

  it('with "compat": { "claude": true } in the user settings, the .claude files are read unchanged, trusted like the project', async () => {
    await put(user(), { compat: { claude: true }, trustedFolders: [project] });
    const settings = await loadSafetySettings({ user: user(), project });
    expect(settings.compat).toEqual({ claude: true });
    const layers = hookLayers(settings);
    expect(layers.map((layer) => [layer.name, layer.file, layer.trusted])).toEqual([
      ['project', join(project, '.weir', 'settings.json'), true],
      ['claude-project', join(project, '.claude', 'settings.json'), true],
      ['claude-local', join(project, '.claude', 'settings.local.json'), true],
    ]);
    expect(layers[1]!.hooks).toEqual(hook('claude-hook'));
  });

  it("the switch from weir.config.json (the sources) does it too; off, the .claude files are not read", async () => {
    expect((await loadSafetySettings({ user: user(), project })).claude).toEqual([]);
    const settings = await loadSafetySettings({ user: user(), project, compat: { claude: true } });
    expect(settings.claude.map((layer) => layer.name)).toEqual(['claude-project', 'claude-local']);
    expect(hookLayers(settings).filter((layer) => layer.name.startsWith('claude')).every((layer) => !layer.trusted)).toBe(true);
  });

  it('a bad compat or hooks value is INVALID_SETTINGS naming the file; a .claude file that is not JSON too', async () => {
    await put(user(), { compat: { claud: true } });
    await expect(loadSafetySettings({ user: user(), project })).rejects.toMatchObject({ code: 'INVALID_SETTINGS', message: expect.stringContaining('unknown key "claud" in "compat"') });
    await put(user(), { hooks: [] });
    await expect(loadSafetySettings({ user: user(), project })).rejects.toMatchObject({ code: 'INVALID_SETTINGS', message: expect.stringContaining('"hooks" must be an object') });
    await put(user(), { compat: { claude: true } });
    await writeFile(join(project, '.claude', 'settings.json'), '{ "hooks": ');
    await expect(loadSafetySettings({ user: user(), project })).rejects.toMatchObject({ code: 'INVALID_SETTINGS', message: expect.stringContaining(join(project, '.claude', 'settings.json')) });
  });
});
