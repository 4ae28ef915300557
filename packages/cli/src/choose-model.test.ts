import { createMockModel } from '@weir/llm-mock';
import { describe, expect, it } from 'vitest';
import { chooseModel, MOCK_MODEL_ID } from './choose-model.js';
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

  it('refuses a configuration set in part, naming what is missing', () => {
    expect(() => chooseModel({ env: { OPENAI_API_KEY: 'sk-x' } })).toThrow(UsageError);
    expect(() => chooseModel({ env: {}, baseURL: 'http://127.0.0.1:1/v1' })).toThrow(/the model \(OPENAI_MODEL or --model/);
    expect(() => chooseModel({ env: { OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm', OPENAI_MAX_RETRIES: 'two' } })).toThrow(/OPENAI_MAX_RETRIES must be a whole number/);
  });
});
