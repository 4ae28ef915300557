import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHarness, type FileAccess, type Harness } from '@weir/core';
import { loadCommands, loadSkills } from '@weir/extensions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandPrompts, serveHarness, workspaceResources, type ServedHarness } from '../src/index.js';

const TOKEN = 'resources-token-0123456789abcdef01234567';
// A 1x1 PNG: bytes that are not UTF-8 text.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let base: string;
let root: string;
let harness: Harness;
let served: ServedHarness | undefined;
let client: Client | undefined;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'weir-mcp-resources-'));
  root = join(base, 'ws');
  await mkdir(join(root, 'src', 'deep'), { recursive: true });
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'config'), '[core]');
  await writeFile(join(root, 'README.md'), '# The workspace\n');
  await writeFile(join(root, 'src', 'a.txt'), 'alpha');
  await writeFile(join(root, 'src', 'deep', 'b.txt'), 'beta');
  await writeFile(join(root, 'logo.png'), PNG);
  await writeFile(join(base, 'secret.txt'), 'outside the root');
  await symlink(join(base, 'secret.txt'), join(root, 'leak.txt'));
  await mkdir(join(base, 'commands'));
  await writeFile(join(base, 'commands', 'review.md'), '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n');
  await mkdir(join(base, 'skills', 'release-notes'), { recursive: true });
  await writeFile(join(base, 'skills', 'release-notes', 'SKILL.md'), '---\nname: release-notes\ndescription: Writes release notes\n---\nRead the changelog, then write the notes.\n');
  harness = createHarness();
});

afterEach(async () => {
  await client?.close();
  await served?.close();
  await harness.close();
  client = served = undefined;
  await rm(base, { recursive: true, force: true });
});

async function connect(options: { pageSize?: number; fileAccess?: FileAccess } = {}): Promise<Client> {
  const { commands } = await loadCommands([{ dir: join(base, 'commands'), source: 'project' }]);
  const { skills } = await loadSkills([{ dir: join(base, 'skills'), source: 'project' }]);
  served = await serveHarness(harness, {
    name: 'workspace',
    http: { port: 0, token: TOKEN },
    resources: await workspaceResources({ root, pageSize: options.pageSize, fileAccess: options.fileAccess }),
    resourcePollMs: 50,
    prompts: await commandPrompts({ commands, skills }),
  });
  client = new Client({ name: 'resources-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

const uri = (relative: string) => pathToFileURL(join(root, relative)).href;

describe('serveHarness resources: the workspace files', () => {
  it('lists every file, paged, without .git and without links; reads text and binary', async () => {
    const mcp = await connect({ pageSize: 2 });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await mcp.listResources(cursor === undefined ? {} : { cursor });
      names.push(...page.resources.map((resource) => resource.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(names).toEqual(['README.md', 'logo.png', 'src/a.txt', 'src/deep/b.txt']);
    expect(pages).toBe(2);

    expect(await mcp.readResource({ uri: uri('src/a.txt') })).toEqual({ contents: [{ uri: uri('src/a.txt'), mimeType: 'text/plain', text: 'alpha' }] });
    const binary = await mcp.readResource({ uri: uri('logo.png') });
    expect(binary.contents).toEqual([{ uri: uri('logo.png'), mimeType: 'image/png', blob: PNG.toString('base64') }]);
  });

  it('refuses a URI outside the root, a link that leads out, and a URI that is not a file URI', async () => {
    const mcp = await connect();
    await expect(mcp.readResource({ uri: pathToFileURL(join(base, 'secret.txt')).href })).rejects.toThrow(/PATH_OUTSIDE_WORKSPACE/);
    await expect(mcp.readResource({ uri: `${pathToFileURL(root).href}/../secret.txt` })).rejects.toThrow(/PATH_OUTSIDE_WORKSPACE/);
    await expect(mcp.readResource({ uri: uri('leak.txt') })).rejects.toThrow(/PATH_OUTSIDE_WORKSPACE/);
    await expect(mcp.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/PATH_OUTSIDE_WORKSPACE/);
    await expect(mcp.readResource({ uri: 'https://example.com/x' })).rejects.toThrow(/-32002/);
    await expect(mcp.subscribeResource({ uri: uri('leak.txt') })).rejects.toThrow(/PATH_OUTSIDE_WORKSPACE/);
  });

  it('a fileAccess check (a policy\'s denials) hides a file from the listing and completion, and refuses reading and subscribing', async () => {
    await writeFile(join(root, '.env'), 'API_KEY=secret');
    // A link inside the root to the denied file is judged by where it leads.
    await symlink(join(root, '.env'), join(root, 'env-link'));
    const fileAccess: FileAccess = { check: (path) => (path === '.env' ? { allowed: false, reason: 'Reading .env is denied by the rules.' } : { allowed: true }) };
    const mcp = await connect({ fileAccess });
    expect((await mcp.listResources()).resources.map((resource) => resource.name)).toEqual(['README.md', 'logo.png', 'src/a.txt', 'src/deep/b.txt']);
    await expect(mcp.readResource({ uri: uri('.env') })).rejects.toThrow(/denied by the rules/);
    await expect(mcp.readResource({ uri: uri('env-link') })).rejects.toThrow(/denied by the rules/);
    await expect(mcp.subscribeResource({ uri: uri('.env') })).rejects.toThrow(/denied by the rules/);
    const template = (await mcp.listResourceTemplates()).resourceTemplates[0]!.uriTemplate;
    expect((await mcp.complete({ ref: { type: 'ref/resource', uri: template }, argument: { name: 'path', value: '.' } })).completion.values).toEqual(['.git/']);
    expect((await mcp.readResource({ uri: uri('src/a.txt') })).contents).toHaveLength(1);
  });

  it('offers a file template, and completes its path from the directory it is in', async () => {
    const mcp = await connect();
    const { resourceTemplates } = await mcp.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: `${pathToFileURL(root).href}/{+path}`, name: 'workspace-file' })]);
    const template = resourceTemplates[0]!.uriTemplate;
    const complete = async (value: string) => (await mcp.complete({ ref: { type: 'ref/resource', uri: template }, argument: { name: 'path', value } })).completion.values;
    expect(await complete('sr')).toEqual(['src/']);
    expect(await complete('src/')).toEqual(['src/a.txt', 'src/deep/']);
    expect(await complete('src/deep/b')).toEqual(['src/deep/b.txt']);
    // A link is not offered, and nothing outside the root is.
    expect(await complete('lea')).toEqual([]);
    expect(await complete('../')).toEqual([]);
    expect((await mcp.readResource({ uri: template.replace('{+path}', 'src/deep/b.txt') })).contents).toEqual([{ uri: uri('src/deep/b.txt'), mimeType: 'text/plain', text: 'beta' }]);
  });

  it('a subscribed file that changes is announced; after unsubscribing it is not', async () => {
    const mcp = await connect();
    const updates: string[] = [];
    let announced: () => void = () => undefined;
    mcp.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
      announced();
    });
    await mcp.subscribeResource({ uri: uri('src/a.txt') });
    const first = new Promise<void>((resolve) => (announced = resolve));
    await writeFile(join(root, 'src', 'a.txt'), 'alpha, rewritten');
    await first;
    expect(updates).toEqual([uri('src/a.txt')]);
    await mcp.unsubscribeResource({ uri: uri('src/a.txt') });
    // Subscribed to another file, which changes after a.txt: only b.txt's update arrives.
    await mcp.subscribeResource({ uri: uri('src/deep/b.txt') });
    const second = new Promise<void>((resolve) => (announced = resolve));
    await writeFile(join(root, 'src', 'a.txt'), 'alpha, again');
    await writeFile(join(root, 'src', 'deep', 'b.txt'), 'beta, rewritten');
    await second;
    expect(updates).toEqual([uri('src/a.txt'), uri('src/deep/b.txt')]);
  });
});

describe('serveHarness prompts: commands and skills', () => {
  it('lists a command with its argument and a skill; gets them expanded', async () => {
    const mcp = await connect();
    const { prompts } = await mcp.listPrompts();
    expect(prompts).toEqual([
      { name: 'review', title: '/review', description: 'Review a file', arguments: [{ name: 'arguments', description: '<file>', required: false }] },
      { name: 'release-notes', title: 'skill release-notes', description: 'Writes release notes' },
    ]);
    expect(await mcp.getPrompt({ name: 'review', arguments: { arguments: 'src/a.txt' } })).toEqual({
      description: 'Review a file',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review src/a.txt carefully.' } }],
    });
    const skill = await mcp.getPrompt({ name: 'release-notes' });
    expect(skill.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Read the changelog, then write the notes.') });
    await expect(mcp.getPrompt({ name: 'nope' })).rejects.toThrow(/no prompt "nope"/);
    await expect(mcp.getPrompt({ name: 'review', arguments: { file: 'x' } })).rejects.toThrow(/takes one argument/);
    // A command's free-text argument has nothing to complete: an empty answer, not an error.
    expect((await mcp.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'arguments', value: 'sr' } })).completion.values).toEqual([]);
  });

  it('a bad source or option is refused at once, with one line', async () => {
    await expect(serveHarness(harness, { name: 'bad', resources: {} as never })).rejects.toThrow(/resources must be a resource source/);
    await expect(serveHarness(harness, { name: 'bad', prompts: { list: 1 } as never })).rejects.toThrow(/prompts must be a prompt source/);
    await expect(serveHarness(harness, { name: 'bad', resourcePollMs: 0 })).rejects.toThrow(/resourcePollMs/);
    await expect(workspaceResources({ root: join(base, 'missing') })).rejects.toThrow(/does not exist/);
    await expect(workspaceResources({ root, pageSize: 0 })).rejects.toThrow(/pageSize must be a positive integer/);
    // Nothing was loaded by the refused calls.
    expect(harness.plugins()).toEqual([]);
  });

  it('without resources and prompts, neither capability is declared', async () => {
    served = await serveHarness(harness, { name: 'bare', http: { port: 0, token: TOKEN } });
    client = new Client({ name: 'bare-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(served.url!, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toBeUndefined();
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.completions).toBeUndefined();
  });
});
