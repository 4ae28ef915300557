import { describe, expect, it } from 'vitest';
import { isOpenAIError, type OpenAIError } from './openai-error.js';
import { openAIModelFromEnv } from './openai-model-from-env.js';

const FULL = { OPENAI_BASE_URL: 'https://api.example.com/v1', OPENAI_API_KEY: 'sk-env-secret-0001', OPENAI_MODEL: 'gpt-env' };

function thrown(run: () => unknown): OpenAIError {
  try {
    run();
  } catch (error) {
    expect(isOpenAIError(error, 'INVALID_CONFIG')).toBe(true);
    return error as OpenAIError;
  }
  throw new Error('expected a throw');
}

describe('openAIModelFromEnv', () => {
  it('builds a model from the three variables', () => {
    expect(openAIModelFromEnv({ env: FULL }).id).toBe('openai:gpt-env');
  });

  it.each(['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_MODEL'] as const)('names %s when it is missing or blank', (name) => {
    for (const value of [undefined, '', '   ']) {
      const error = thrown(() => openAIModelFromEnv({ env: { ...FULL, [name]: value } }));
      expect(error.message).toContain(name);
      for (const other of Object.keys(FULL).filter((key) => key !== name)) expect(error.message).not.toContain(other);
      expect(error.message).not.toContain(FULL.OPENAI_API_KEY);
    }
  });

  it('names every missing variable at once', () => {
    const error = thrown(() => openAIModelFromEnv({ env: {} }));
    expect(error.message).toMatch(/OPENAI_BASE_URL.*OPENAI_API_KEY.*OPENAI_MODEL/);
  });

  it('lets options win over the variables, and fill in for missing ones', () => {
    expect(openAIModelFromEnv({ env: FULL, model: 'override' }).id).toBe('openai:override');
    expect(openAIModelFromEnv({ env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' }, apiKey: '', model: 'llama3' }).id).toBe('openai:llama3');
  });

  it('passes bad values on to createOpenAIModel, which names them', () => {
    expect(thrown(() => openAIModelFromEnv({ env: { ...FULL, OPENAI_BASE_URL: 'localhost:8000' } })).message).toMatch(/OPENAI_BASE_URL/);
  });

  it('reads process.env by default', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, FULL);
      expect(openAIModelFromEnv().id).toBe('openai:gpt-env');
    } finally {
      for (const key of Object.keys(FULL)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
