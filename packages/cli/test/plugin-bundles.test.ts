// Plugin bundles with real material: every Claude Code plugin in the shared fixtures is read
// unchanged and its parts registered, and unloading it leaves the harness as before (the
// conformance kit's snapshot); a weir bundle of our own with a tool, a hook and an MCP server runs.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createHarness, type Harness } from '@weir/core';
import { diffSnapshots, snapshotHarness } from '@weir/core/testing';
import { expandCommand, loadAgentDefinitions, loadCommands, loadSkills } from '@weir/extensions';
import { createScriptedModel } from '@weir/llm-mock';
import { fsTools } from '@weir/tools-fs';
import { sharedFixture } from '../../../test/shared-fixtures.js';
import { bundleRoots } from '../src/bundles/bundle-roots.js';
import { loadBundle } from '../src/bundles/load-bundle.js';
import { readBundle } from '../src/bundles/read-bundle.js';
import { writeEchoServer } from './support/echo-mcp-server.js';

const ecosystem = sharedFixture('claude-ecosystem', 'the Claude Code plugin manifests');
interface IndexEntry {
  readonly path: string;
  readonly manifest: { readonly name: string };
  readonly components: { commands?: string[]; agents?: string[]; skills?: string[]; hooks?: { events: string[] }; mcp?: Record<string, { url?: string }> };
}
const index: readonly IndexEntry[] = ecosystem === undefined ? [] : (JSON.parse(readFileSync(join(ecosystem, 'plugins/INDEX.json'), 'utf8')) as { plugins: IndexEntry[] }).plugins;

const markdownIn = (dirs: readonly string[], root: string) =>
  dirs.flatMap((dir) => readdirSync(dir).filter((file) => file.endsWith('.md')).map((file) => relative(root, join(dir, file)))).sort();
const skillFilesIn = (dirs: readonly string[], root: string) =>
  dirs.flatMap((dir) => readdirSync(dir).filter((name) => readdirSync(join(dir, name)).includes('SKILL.md')).map((name) => relative(root, join(dir, name, 'SKILL.md')))).sort();

let harness: Harness | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe.runIf(ecosystem)('the shared Claude Code plugins', () => {
  it('has the 25 plugins the fixtures list', () => {
    expect(index).toHaveLength(25);
  });

  it.each(index.map((entry) => [entry.manifest.name, entry] as const))('%s: read unchanged, its parts registered, and unloading restores the snapshot', async (_, entry) => {
    const root = join(ecosystem!, entry.path);
    const bundle = await readBundle(root);
    expect(bundle).toMatchObject({ name: entry.manifest.name, format: 'claude', root });
    expect(markdownIn(bundle.commands, root)).toEqual(entry.components.commands ?? []);
    expect(markdownIn(bundle.agents, root)).toEqual(entry.components.agents ?? []);
    expect(skillFilesIn(bundle.skills, root)).toEqual((entry.components.skills ?? []).filter((file) => file.endsWith('/SKILL.md')).sort());
    expect(bundle.hooks.flatMap((part) => Object.keys(part.hooks as object))).toEqual(entry.components.hooks?.events ?? []);
    expect(bundle.mcpServers.map((server) => [server.name, 'url' in server ? server.url : undefined])).toEqual(
      Object.entries(entry.components.mcp ?? {}).map(([name, server]) => [name, server.url]),
    );

    harness = createHarness();
    await harness.use(fsTools({ root: tmpdir() }));
    const before = snapshotHarness(harness);
    // Its remote MCP server (https://mcp.example.com) is not reachable from CI: the rest loads.
    const loaded = await loadBundle({ ...bundle, mcpServers: [] }, harness, { projectDir: tmpdir(), trusted: true });
    const runnable = loaded.hooks?.hooks.filter((hook) => hook.skipped === undefined) ?? [];
    if (bundle.hooks.length > 0) expect(loaded.plugins).toEqual([`plugin-hooks:${bundle.name}`]);
    // Each hook runs with CLAUDE_PLUGIN_ROOT the plugin's folder; events weir has no notion of are listed, not run.
    expect(new Set(loaded.hooks?.hooks.map((hook) => hook.layer.pluginRoot) ?? [])).toEqual(new Set(bundle.hooks.length > 0 ? [root] : []));
    if (runnable.some((hook) => hook.event === 'PreToolUse')) expect(diffSnapshots(before, snapshotHarness(harness)).join('\n')).toMatch(/guards/);
    await loaded.unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);

    // Its skills, commands and agents load with @weir/extensions' loaders, every file of them.
    const roots = bundleRoots([bundle]);
    const [skills, commands, agents] = await Promise.all([loadSkills(roots.skills), loadCommands(roots.commands), loadAgentDefinitions(roots.agents)]);
    expect([...skills.problems, ...commands.problems, ...agents.problems].filter((problem) => problem.reason.startsWith('not loaded'))).toEqual([]);
    expect(skills.skills.map((skill) => relative(root, skill.file)).sort()).toEqual(skillFilesIn(bundle.skills, root));
    expect(commands.commands.map((command) => relative(root, command.file)).sort()).toEqual(entry.components.commands ?? []);
    expect(agents.agents.map((agent) => relative(root, agent.file)).sort()).toEqual(entry.components.agents ?? []);
    expect(new Set([...skills.skills, ...commands.commands].map((item) => item.source))).toEqual(new Set(skills.skills.length + commands.commands.length > 0 ? [`plugin ${bundle.name}`] : []));
  });

  it("a plugin's command runs: /example-command of example-plugin, with its arguments, is the turn's prompt", async () => {
    const bundle = await readBundle(join(ecosystem!, 'plugins/anthropics__claude-plugins-official/plugins/example-plugin'));
    const { commands } = await loadCommands(bundleRoots([bundle]).commands);
    const command = commands.find((candidate) => candidate.name === 'example-command');
    expect(command).toMatchObject({ description: expect.stringMatching(/^An example slash command/), argumentHint: '<required-arg> [optional-arg]', source: 'plugin example-plugin' });
    const { prompt } = expandCommand(command!, 'alpha "beta gamma"');
    harness = createHarness();
    const model = createScriptedModel([{ text: 'Ran the example command.' }]);
    const agent = createAgent({ model, harness, system: 'test' });
    const { text } = await agent.turn(prompt);
    expect(text).toBe('Ran the example command.');
    const sent = JSON.stringify(model.requests[0]!.messages.at(-1));
    expect(sent).toContain('The user invoked this command with: alpha \\"beta gamma\\"');
    expect(sent).toContain('# Example Command');
    model.assertAllUsed();
  });
});

describe('a weir bundle (package.json "weir" field)', () => {
  it('registers its tool, its hook and its MCP server; the hook guards the tool; unloading restores the snapshot', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'weir-bundle-'));
    const root = join(scratch, 'weir-bundle-demo');
    mkdirSync(join(root, 'hooks'), { recursive: true });
    const server = writeEchoServer(root);
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'weir-bundle-demo', version: '1.0.0', type: 'module', weir: { tools: './tools.mjs', hooks: './hooks/hooks.json', mcpServers: './.mcp.json' } }),
    );
    writeFileSync(
      join(root, 'tools.mjs'),
      `export default () => ({ name: 'demo', setup(ctx) { ctx.tools.register({ name: 'greet', description: 'Greets someone by name.', tier: 'read-only', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, execute: ({ name }) => 'Hello, ' + name + '!' }); } });\n`,
    );
    // A guard hook in Claude Code's format: refuses greeting "Mallory", from the bundle's own folder.
    writeFileSync(join(root, 'hooks', 'refuse.sh'), `#!/bin/sh\ngrep -q '"name":"Mallory"' && { echo "no greeting Mallory" >&2; exit 2; }\nexit 0\n`, { mode: 0o755 });
    writeFileSync(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'greet', hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/hooks/refuse.sh"' }] }] } }));
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/' + relative(root, server)] } } }));

    const bundle = await readBundle(root);
    expect(bundle).toMatchObject({ name: 'weir-bundle-demo', format: 'weir', tools: [join(root, 'tools.mjs')] });
    expect(bundle.mcpServers).toEqual([expect.objectContaining({ name: 'echo', args: [server] })]);

    harness = createHarness();
    const before = snapshotHarness(harness);
    const loaded = await loadBundle(bundle, harness, { projectDir: root, trusted: true });
    expect(loaded.plugins).toEqual(['demo', 'plugin-hooks:weir-bundle-demo', 'mcp:echo']);
    expect([...loaded.tools].sort()).toEqual(['echo__echo', 'echo__shout', 'greet']);
    expect(await harness.executeToolCall({ id: 'g1', name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ ok: true, content: 'Hello, Ada!' });
    const refused = await harness.executeToolCall({ id: 'g2', name: 'greet', arguments: { name: 'Mallory' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(refused.ok ? '' : refused.error.message).toContain('no greeting Mallory');
    expect(await harness.executeToolCall({ id: 'e1', name: 'echo__echo', arguments: { text: 'hi' } })).toMatchObject({ ok: true });

    await loaded.unload();
    expect(diffSnapshots(before, snapshotHarness(harness))).toEqual([]);
  });

  it('an untrusted bundle runs nothing: no tool, no server, its hooks listed as not run', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'weir-bundle-'));
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'b', weir: { tools: './never.mjs', hooks: './h.json' } }));
    writeFileSync(join(scratch, 'h.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch ran' }] }] } }));
    harness = createHarness();
    const loaded = await loadBundle(await readBundle(scratch), harness, { projectDir: scratch, trusted: false });
    expect(loaded.tools).toEqual([]);
    expect(loaded.hooks?.hooks.map((hook) => hook.skipped)).toEqual([expect.stringMatching(/not trusted/)]);
    await loaded.unload();
  });

  it('refuses a folder that is no bundle, a path outside the bundle, and an unknown part, in one line each', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'weir-bundle-'));
    await expect(readBundle(scratch)).rejects.toThrow(/is not a plugin bundle: it has neither a package.json "weir" field nor \.claude-plugin/);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'b', weir: { skills: '../elsewhere' } }));
    await expect(readBundle(scratch)).rejects.toThrow(/"weir.skills" names "..\/elsewhere", outside the bundle's folder/);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'b', weir: { themes: './t' } }));
    await expect(readBundle(scratch)).rejects.toThrow(/"weir.themes" is not a part weir knows/);
  });
});
