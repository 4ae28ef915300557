import { createMockModel } from '@weir/llm-mock';
import { describe, expect, it } from 'vitest';
import { chooseModel, MOCK_MODEL_ID, parseModelName } from './choose-model.js';
import { UsageError } from './usage-error.js';

describe('chooseModel', () => {
  it('names the mock as @weir/llm-mock does, before loading it', async () => {
    const chosen = chooseModel({ env: {} });
    expect(chosen.id).toBe(MOCK_MODEL_ID);
    expect((await chosen.load()).id).toBe(createMockModel().id);
  });

  it('takes an OpenAI-compatible endpoint from the environment or flags, flags first, and a local server without a key', async () => {
    const chosen = chooseModel({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'env-model' }, model: 'flag-model' });
    expect(chosen.id).toBe('openai:flag-model');
    expect(chosen.description).toBe('openai:flag-model at http://127.0.0.1:1/v1 (no OPENAI_API_KEY: no key sent)');
    expect((await chosen.load()).id).toBe('openai:flag-model');
  });

  it('a base URL that does not parse is described without its password or query values', () => {
    const chosen = chooseModel({ env: { OPENAI_MODEL: 'env-model' }, baseURL: 'http://alice:hunter2@exa mple.com/v1?api_key=sk-live-1' });
    expect(chosen.description).toContain('exa mple.com');
    expect(chosen.description).not.toMatch(/alice|hunter2|sk-live-1/);
  });

  it('refuses a configuration set in part, naming what is missing', () => {
    expect(() => chooseModel({ env: { OPENAI_API_KEY: 'sk-x' } })).toThrow(UsageError);
    expect(() => chooseModel({ env: {}, baseURL: 'http://127.0.0.1:1/v1' })).toThrow(/the model \(OPENAI_MODEL or --model/);
    expect(() => chooseModel({ env: { OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_MAX_RETRIES: 'two' } })).toThrow(/OPENAI_MAX_RETRIES must be a whole number/);
  });
});

describe('chooseModel from the provider table', () => {
  it('takes --model anthropic:<id> with ANTHROPIC_API_KEY, and loads Claude', async () => {
    const chosen = chooseModel({ env: { ANTHROPIC_API_KEY: 'sk-ant-x', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }, model: 'anthropic:claude-haiku-4-5' });
    expect(chosen.id).toBe('anthropic:claude-haiku-4-5');
    expect(chosen.description).toBe('anthropic:claude-haiku-4-5 at api.anthropic.com (Messages API: thinking and prompt caching)');
    expect(await chosen.load()).toMatchObject({ id: 'anthropic:claude-haiku-4-5', provider: 'anthropic' });
  });

  it('takes the first provider whose variables are set, Anthropic before OpenAI, and a bare --model as OpenAI-compatible', () => {
    const both = { ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_MODEL: 'claude-sonnet-4-5', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'gpt' };
    expect(chooseModel({ env: both }).id).toBe('anthropic:claude-sonnet-4-5');
    expect(chooseModel({ env: both, model: 'openai:gpt-4.1' }).id).toBe('openai:gpt-4.1');
    expect(chooseModel({ env: both, model: 'local-model' }).id).toBe('openai:local-model');
  });

  it('refuses an Anthropic configuration set in part, naming what is missing and never the key', () => {
    expect(() => chooseModel({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret' } })).toThrow(/ANTHROPIC_API_KEY\): the model \(ANTHROPIC_MODEL/);
    expect(() => chooseModel({ env: {}, model: 'anthropic:claude-sonnet-4-5' })).toThrow(/the key \(ANTHROPIC_API_KEY\) is missing/);
    try {
      chooseModel({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret' } });
    } catch (error) {
      expect(String(error)).not.toContain('sk-ant-secret');
    }
  });
});

describe('chooseModel: the Responses API and Gemini', () => {
  it('takes --model openai-responses:<id>, or OPENAI_API=responses, as the Responses API, and loads it', async () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_API_KEY: 'sk-x' };
    const named = chooseModel({ env, model: 'openai-responses:o4-mini' });
    expect(named.id).toBe('openai-responses:o4-mini');
    expect(named.description).toBe('openai-responses:o4-mini at http://127.0.0.1:1/v1 (Responses API: reasoning kept between turns)');
    expect(await named.load()).toMatchObject({ provider: 'openai-responses' });
    const fromEnv = chooseModel({ env: { ...env, OPENAI_MODEL: 'o4-mini', OPENAI_API: 'responses' } });
    expect(fromEnv.id).toBe('openai-responses:o4-mini');
    expect(chooseModel({ env: { ...env, OPENAI_MODEL: 'gpt' } }).id).toBe('openai:gpt');
    expect(() => chooseModel({ env: { ...env, OPENAI_MODEL: 'gpt', OPENAI_API: 'completions' } })).toThrow(/OPENAI_API must be "chat" or "responses"/);
  });

  it('takes --model google:<id> with GEMINI_API_KEY or GOOGLE_API_KEY, and GEMINI_* alone, and loads Gemini', async () => {
    const named = chooseModel({ env: { GOOGLE_API_KEY: 'g-x' }, model: 'google:gemini-2.5-flash' });
    expect(named.id).toBe('google:gemini-2.5-flash');
    expect(named.description).toBe('google:gemini-2.5-flash at generativelanguage.googleapis.com (Gemini API: thoughts and their signatures)');
    expect(await named.load()).toMatchObject({ provider: 'google' });
    expect(chooseModel({ env: { GEMINI_API_KEY: 'g-x', GEMINI_MODEL: 'gemini-2.5-pro' } }).id).toBe('google:gemini-2.5-pro');
    // Anthropic, then OpenAI, then Gemini: the first set wins.
    expect(chooseModel({ env: { GEMINI_API_KEY: 'g-x', GEMINI_MODEL: 'g', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'gpt' } }).id).toBe('openai:gpt');
  });

  it('refuses a Gemini configuration set in part, naming what is missing and never the key', () => {
    expect(() => chooseModel({ env: { GEMINI_API_KEY: 'g-secret' } })).toThrow(/the model \(GEMINI_MODEL or --model google:<id>/);
    expect(() => chooseModel({ env: {}, model: 'google:gemini-2.5-flash' })).toThrow(/the key \(GEMINI_API_KEY or GOOGLE_API_KEY\) is missing/);
    try {
      chooseModel({ env: { GEMINI_API_KEY: 'g-secret' } });
    } catch (error) {
      expect(String(error)).not.toContain('g-secret');
    }
  });

  it('names every provider once on the mock line', () => {
    expect(chooseModel({ env: {} }).description).toBe('mock:rules (the mock model: no ANTHROPIC_* or OPENAI_* or GEMINI_* variable or --model is set)');
  });
});

describe('parseModelName', () => {
  it('reads <provider>:<id> for a provider of the table or the mock, and nothing for a bare id with a colon', () => {
    expect(parseModelName('anthropic:claude-sonnet-4-5')).toMatchObject({ provider: { prefix: 'anthropic' }, id: 'claude-sonnet-4-5' });
    expect(parseModelName('openai-responses:gpt-5')).toMatchObject({ provider: { prefix: 'openai-responses' }, id: 'gpt-5' });
    expect(parseModelName('mock:rules')).toEqual({ provider: 'mock', id: 'rules' });
    expect(parseModelName('llama3:8b')).toBeUndefined();
    expect(parseModelName('gpt-5')).toBeUndefined();
  });

  it('--model mock:rules is the mock, and a model named elsewhere is told by where in the missing-key message', () => {
    expect(chooseModel({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'm' }, model: 'mock:rules' }).description).toBe('mock:rules (the mock model)');
    expect(() => chooseModel({ env: {}, model: 'anthropic:claude-sonnet-4-5', modelFrom: 'weir.config.json "model"' })).toThrow('The model is set only in part (weir.config.json "model"): the key (ANTHROPIC_API_KEY) is missing.');
  });
});
