import { describe, expect, it } from 'vitest';
import { resolveOptions } from './anthropic-model-options.js';

describe('resolveOptions', () => {
  it('a base URL that does not parse is shown without its password or query values', () => {
    let caught: unknown;
    try {
      resolveOptions({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: 'https://user:hunter2@exa mple.com/v1?api_key=sk-live-1' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'INVALID_CONFIG' });
    expect((caught as Error).message).toContain('is not a URL');
    expect((caught as Error).message).not.toMatch(/hunter2|sk-live-1/);
  });
});
