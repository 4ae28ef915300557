import { describe, expect, it } from 'vitest';
import { errorFromResponse, type ErrorContext } from './error-from-response.js';
import { requestTarget } from './request-target.js';

const KEY = 'sk-test-very-secret-key-123';
const context = (baseURL = 'https://api.example.com/v1'): ErrorContext => ({ target: requestTarget(baseURL), model: 'gpt-test', secrets: [KEY], attempt: 1 });
const json = (body: unknown) => JSON.stringify(body);
const error = (status: number, body = '', headers: Record<string, string> = {}, baseURL?: string) => errorFromResponse(status, new Headers(headers), body, context(baseURL));

describe('errorFromResponse', () => {
  it.each([
    [400, 'BAD_REQUEST', false],
    [401, 'AUTHENTICATION', false],
    [402, 'QUOTA_EXCEEDED', false],
    [403, 'PERMISSION_DENIED', false],
    [404, 'NOT_FOUND', false],
    [408, 'PROVIDER_UNAVAILABLE', true],
    [409, 'PROVIDER_UNAVAILABLE', true],
    [413, 'BAD_REQUEST', false],
    [422, 'BAD_REQUEST', false],
    [429, 'RATE_LIMITED', true],
    [500, 'PROVIDER_UNAVAILABLE', true],
    [502, 'PROVIDER_UNAVAILABLE', true],
    [503, 'PROVIDER_UNAVAILABLE', true],
    [529, 'PROVIDER_UNAVAILABLE', true],
    [302, 'UNEXPECTED_STATUS', false],
  ] as const)('%i -> %s, retryable %s', (status, code, retryable) => {
    const result = error(status);
    expect(result.code).toBe(code);
    expect(result.retryable).toBe(retryable);
    expect(result.status).toBe(status);
    // The status is named once, with the request it answered: never "(HTTP 500) (HTTP 500 from ...)".
    expect(result.message.split(`HTTP ${status}`).length - 1).toBe(1);
    expect(result.message).not.toMatch(/\.\./);
  });

  it.each([
    ['true', 503, true],
    ['false', 503, false],
    ['false', 429, false],
    ['true', 418, true],
    ['true', 400, false],
    ['true', 401, false],
    ['true', 403, false],
    ['true', 404, false],
    ['true', 422, false],
  ] as const)('x-should-retry: %s on %i -> retryable %s', (header, status, retryable) => {
    expect(error(status, '', { 'x-should-retry': header }).retryable).toBe(retryable);
  });

  it('a 429 about quota is terminal, even with retry headers', () => {
    const result = error(429, json({ error: { message: 'out of credit', type: 'insufficient_quota', code: 'insufficient_quota' } }), { 'x-should-retry': 'true', 'retry-after': '1' });
    expect(result.code).toBe('QUOTA_EXCEEDED');
    expect(result.retryable).toBe(false);
  });

  it('context overflow is typed by code, or by the message of servers that send no code (vLLM)', () => {
    expect(error(400, json({ error: { message: 'too long', code: 'context_length_exceeded' } })).code).toBe('CONTEXT_LENGTH_EXCEEDED');
    const vllm = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";
    expect(error(400, json({ object: 'error', message: vllm, type: 'BadRequestError', code: 400 })).code).toBe('CONTEXT_LENGTH_EXCEEDED');
    expect(error(500, json({ error: { message: vllm } })).code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('401 says to check OPENAI_API_KEY and never echoes the key, even when the server does', () => {
    const result = error(401, json({ error: { message: `Incorrect API key provided: ${KEY}.` } }));
    expect(result.message).toContain('OPENAI_API_KEY');
    expect(result.message).not.toContain(KEY);
    expect(result.providerMessage).toBe('Incorrect API key provided: [redacted].');
    expect(error(401, `<p>${KEY}</p>`).bodyExcerpt).not.toContain(KEY);
  });

  it('404 names the model and the URL, and hints at a missing /v1 only when it is missing', () => {
    const withVersion = error(404, '');
    expect(withVersion.message).toContain('"gpt-test"');
    expect(withVersion.message).toContain('https://api.example.com/v1/chat/completions');
    expect(withVersion.message).not.toMatch(/try .*\/v1/);
    const without = error(404, '<html>Not Found</html>', {}, 'http://localhost:8000?token=abc');
    expect(without.message).toContain('try http://localhost:8000/v1');
    expect(without.message).toContain('http://localhost:8000/chat/completions');
    expect(without.message).not.toContain('token=abc');
    expect(without.url).toBe('http://localhost:8000/chat/completions');
  });

  it('keeps the provider message, type, code, param and the request id', () => {
    const result = error(400, json({ error: { message: 'schema must be an object', type: 'invalid_request_error', param: 'tools[0]', code: 'invalid_value' } }), { 'x-request-id': 'req_1' });
    expect(result).toMatchObject({ providerMessage: 'schema must be an object', providerType: 'invalid_request_error', param: 'tools[0]', providerCode: 'invalid_value', requestId: 'req_1' });
    expect(result.message).toContain('schema must be an object');
    expect(result.message).toContain('req_1');
  });

  it('says when the body was empty', () => {
    expect(error(502).message).toContain('The body was empty.');
  });

  it('marks an error sent inside a 200 answer as such', () => {
    const result = errorFromResponse(502, new Headers(), json({ error: { message: 'upstream died', code: 502 } }), context(), 'in-body');
    expect(result.message).toContain('inside a 200 answer');
    expect(result.retryable).toBe(true);
  });
});
