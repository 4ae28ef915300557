import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_TIMEOUT_MS, resolveTransport } from './transport-options.js';

const invalid = (message: string) => new RangeError(message);
const resolve = (options: Parameters<typeof resolveTransport>[0]) => resolveTransport(options, 'sk-key', { 'x-api-key': 'sk-key', accept: 'text/event-stream' }, invalid);

describe('resolveTransport', () => {
  it('fills in the defaults and keeps the adapter headers under the caller ones', () => {
    const resolved = resolve({ headers: { accept: 'application/json', 'x-trace': '1' } });
    expect(resolved).toMatchObject({ timeoutMs: DEFAULT_MODEL_TIMEOUT_MS, idleTimeoutMs: 120_000, maxRetries: 2, maxRetryDelayMs: 60_000, fetch: globalThis.fetch });
    expect(Object.fromEntries(resolved.headers)).toEqual({ 'x-api-key': 'sk-key', accept: 'application/json', 'x-trace': '1' });
  });

  it('counts the key and credential-looking headers as secrets, a bearer value also without its scheme', () => {
    const resolved = resolve({ headers: { Authorization: 'Bearer proxy-token', 'x-trace': 'not-secret' } });
    expect(resolved.secrets).toEqual(['sk-key', 'Bearer proxy-token', 'proxy-token']);
  });

  it.each([
    [{ timeoutMs: 0 }, /timeoutMs must be a positive number of milliseconds/],
    [{ idleTimeoutMs: Number.NaN }, /idleTimeoutMs must be a positive/],
    [{ maxRetryDelayMs: -1 }, /maxRetryDelayMs must be a positive/],
    [{ maxRetries: 1.5 }, /maxRetries must be a whole number >= 0, got 1.5/],
    [{ fetch: 'fetch' as unknown as typeof fetch }, /fetch must be a function/],
    [{ headers: { 'x-n': 3 as unknown as string } }, /headers.x-n must be a string, got number/],
  ])('refuses %o with the adapter error naming the option', (options, message) => {
    expect(() => resolve(options)).toThrow(RangeError);
    expect(() => resolve(options)).toThrow(message);
  });

  it('takes Infinity as no deadline', () => {
    expect(resolve({ timeoutMs: Number.POSITIVE_INFINITY }).timeoutMs).toBe(Number.POSITIVE_INFINITY);
  });
});
