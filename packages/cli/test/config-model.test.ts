// The config's "model" (weir.config.json, --config) as `weir run` takes it: named in the [model]
// line, --model over it, it over the environment, checked against the provider table, the key and
// endpoint only from the environment, and a project's only once the folder is trusted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { makeSandbox, runWeir, type Sandbox } from './support/run-weir.js';

let sandbox: Sandbox;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => sandbox?.remove());

// No Anthropic or Gemini key from the machine running the tests: an empty variable is an unset one.
const noKeys = { ANTHROPIC_API_KEY: '', ANTHROPIC_MODEL: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', GEMINI_MODEL: '' };
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runWeir(args, { cwd: sandbox.workspace, env: { ...sandbox.env, ...noKeys, ...env } });
const lines = (text: string) => text.trimEnd().split('\n');
const MOCK_NOTHING_SET = '[model] mock:rules (the mock model: no ANTHROPIC_* or OPENAI_* or GEMINI_* variable or --model is set)';

function projectConfig(config: unknown, trusted: boolean): string {
  const file = join(sandbox.workspace, 'weir.config.json');
  writeFileSync(file, JSON.stringify(config));
  if (trusted) {
    mkdirSync(sandbox.home, { recursive: true });
    writeFileSync(join(sandbox.home, 'settings.json'), JSON.stringify({ trustedFolders: [sandbox.workspace] }));
  }
  return file;
}

describe('weir run: the config\'s "model"', () => {
  it('is used over the environment\'s model, its endpoint from the environment, and the [model] line names the file', async () => {
    sandbox = makeSandbox();
    projectConfig({ model: 'openai:stand-in' }, true);
    const before = server.requests.length;
    const result = await run(['run', 'hello'], { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'the-environment-s' });
    expect(result.code).toBe(0);
    expect(lines(result.stderr)[0]).toBe(`[model] openai:stand-in at ${server.baseURL} (no OPENAI_API_KEY: no key sent) (from weir.config.json)`);
    expect(result.stdout).toBe('You said: hello\n');
    expect(server.requests.slice(before).map((request) => (request as { model?: string }).model)).toEqual(['stand-in']);
    expect(result.stderr).not.toContain('[config]');

    // The mock by name wins over a provider the environment sets up; --json says so too.
    projectConfig({ model: 'mock:rules' }, true);
    const mock = await run(['run', '--json', 'hello'], { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'the-environment-s' });
    expect(mock.code).toBe(0);
    expect(lines(mock.stderr)[0]).toBe('[model] mock:rules (the mock model) (from weir.config.json)');
    expect(JSON.parse(lines(mock.stdout)[0]!)).toMatchObject({ type: 'model', id: 'mock:rules' });
  }, 120_000);

  it('--model wins over it, and --config\'s is named by the path given', async () => {
    sandbox = makeSandbox();
    projectConfig({ model: 'openai:stand-in' }, true);
    const flag = await run(['run', '--model', 'mock:rules', 'hello'], { OPENAI_BASE_URL: server.baseURL });
    expect(flag.code).toBe(0);
    expect(lines(flag.stderr)[0]).toBe('[model] mock:rules (the mock model) (--model wins over weir.config.json\'s "model": openai:stand-in)');

    writeFileSync(join(sandbox.workspace, 'other.json'), JSON.stringify({ model: 'mock:rules' }));
    const other = await run(['run', '--config', 'other.json', 'hello'], { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'stand-in' });
    expect(other.code).toBe(0);
    expect(lines(other.stderr)[0]).toBe('[model] mock:rules (the mock model) (from other.json)');
  }, 120_000);

  it('a provider without its key is the "set only in part" error, naming the config', async () => {
    sandbox = makeSandbox();
    projectConfig({ model: 'anthropic:claude-sonnet-4-5' }, true);
    const result = await run(['run', 'hello']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual(['[error] The model is set only in part (weir.config.json "model"): the key (ANTHROPIC_API_KEY) is missing.']);
  }, 120_000);

  it('a bad value, or a key or endpoint in the file, is one line naming the file and the key, exit status 1', async () => {
    sandbox = makeSandbox();
    const file = projectConfig({ model: 'llama3:8b' }, true);
    const bad = await run(['run', 'hello']);
    expect(bad.code).toBe(1);
    expect(lines(bad.stderr)).toEqual([
      `[error] The config file ${file} is not valid: "model" must be a string "<provider>:<id>" with a provider weir knows (anthropic:<id>, openai:<id>, google:<id>, openai-responses:<id>, mock:rules), got "llama3:8b".`,
    ]);

    for (const [config, key] of [
      [{ model: 'openai:gpt-5', apiKey: 'sk-x' }, 'apiKey'],
      [{ model: 'openai:gpt-5', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }, 'OPENAI_BASE_URL'],
      [{ model: { id: 'openai:gpt-5', baseURL: 'http://127.0.0.1:1/v1' } }, 'model.baseURL'],
    ] as const) {
      projectConfig(config, true);
      const refused = await run(['run', 'hello']);
      expect(refused.code, key).toBe(1);
      const [line, ...rest] = lines(refused.stderr);
      expect(rest, key).toEqual([]);
      expect(line, key).toMatch(new RegExp(`^\\[error\\] The config file ${file.replace(/[/.]/g, '\\$&')} is not valid: "${key.replace('.', '\\.')}" is not accepted: the model's key and endpoint come only from the environment .* never from a config file`));
    }
  }, 120_000);

  it("an untrusted project's \"model\" is not used, with the config's not-trusted line", async () => {
    sandbox = makeSandbox();
    const file = projectConfig({ model: 'anthropic:claude-sonnet-4-5' }, false);
    const result = await run(['run', 'hello']);
    expect(result.code).toBe(0);
    const status = lines(result.stderr);
    expect(status[0]).toBe(MOCK_NOTHING_SET);
    expect(status).toContainEqual(expect.stringMatching(new RegExp(`^\\[config\\] ${file.replace(/[/.]/g, '\\$&')} is not used: this folder is not trusted\\.`)));
    // Not even checked: a bad value in an untrusted file is no error either.
    projectConfig({ model: 'nope' }, false);
    expect((await run(['run', 'hello'])).code).toBe(0);
  }, 120_000);
});
