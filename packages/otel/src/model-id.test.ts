import { describe, expect, it } from 'vitest';
import { splitModelId } from './model-id.js';

describe('splitModelId', () => {
  it.each([
    ['openai:gpt-5', 'openai', 'gpt-5'],
    ['google:gemini-2.5-flash', 'gcp.gemini', 'gemini-2.5-flash'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['mock:rules', 'mock', 'rules'],
    ['plain', 'unknown', 'plain'],
  ])('%s -> %s / %s', (id, provider, model) => {
    expect(splitModelId(id)).toEqual({ provider, model });
  });
});
