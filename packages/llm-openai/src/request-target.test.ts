import { describe, expect, it } from 'vitest';
import { isOpenAIError } from './openai-error.js';
import { requestTarget } from './request-target.js';

describe('requestTarget', () => {
  it('appends /chat/completions, with or without a trailing slash', () => {
    expect(requestTarget('https://api.openai.com/v1').href).toBe('https://api.openai.com/v1/chat/completions');
    expect(requestTarget('https://api.openai.com/v1/').href).toBe('https://api.openai.com/v1/chat/completions');
  });

  it('accepts a pasted endpoint URL as it is', () => {
    expect(requestTarget('http://localhost:1234/v1/chat/completions').href).toBe('http://localhost:1234/v1/chat/completions');
  });

  it('keeps the query string for requests, and drops it (and credentials) for display', () => {
    const target = requestTarget('https://user:pw@example.openai.azure.com/openai/deployments/gpt/?api-version=2024-10-21');
    expect(target.href).toBe('https://user:pw@example.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21');
    expect(target.display).toBe('https://example.openai.azure.com/openai/deployments/gpt/chat/completions');
  });

  it('a base URL that does not parse is shown without its password or query values', () => {
    let caught: unknown;
    try {
      requestTarget('https://user:hunter2@exa mple.com/v1?api_key=sk-live-1');
    } catch (error) {
      caught = error;
    }
    expect(isOpenAIError(caught, 'INVALID_CONFIG')).toBe(true);
    expect((caught as Error).message).not.toMatch(/hunter|sk-live/);
  });

  it('knows whether the base URL has a version segment', () => {
    expect(requestTarget('https://api.openai.com/v1').hasVersionSegment).toBe(true);
    expect(requestTarget('https://generativelanguage.googleapis.com/v1beta/openai').hasVersionSegment).toBe(true);
    expect(requestTarget('http://127.0.0.1:8000').hasVersionSegment).toBe(false);
    expect(requestTarget('https://openrouter.ai/api').hasVersionSegment).toBe(false);
  });

  it.each(['not a url', 'ftp://example.com/v1', ''])('refuses %j with INVALID_CONFIG', (url) => {
    let caught: unknown;
    try {
      requestTarget(url);
    } catch (error) {
      caught = error;
    }
    expect(isOpenAIError(caught, 'INVALID_CONFIG')).toBe(true);
  });
});
