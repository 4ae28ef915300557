import { describe, expect, it } from 'vitest';
import { checkLoopbackRequest } from './check-loopback-request.js';

describe('checkLoopbackRequest', () => {
  it('lets loopback hosts with our port through, with or without a loopback Origin', () => {
    expect(checkLoopbackRequest({ host: '127.0.0.1:4100' }, 4100)).toBeUndefined();
    expect(checkLoopbackRequest({ host: 'localhost:4100', origin: 'http://localhost:4100' }, 4100)).toBeUndefined();
    expect(checkLoopbackRequest({ host: '[::1]:4100', origin: 'http://127.0.0.1:4100' }, 4100)).toBeUndefined();
  });

  it('refuses a rebound name, another port, or no Host', () => {
    expect(checkLoopbackRequest({ host: 'evil.example.com' }, 4100)?.status).toBe(421);
    expect(checkLoopbackRequest({ host: 'evil.example.com:4100' }, 4100)?.status).toBe(421);
    expect(checkLoopbackRequest({ host: '127.0.0.1:4101' }, 4100)?.status).toBe(421);
    expect(checkLoopbackRequest({}, 4100)?.status).toBe(421);
  });

  it('refuses a foreign Origin unless it is allowed', () => {
    expect(checkLoopbackRequest({ host: '127.0.0.1:4100', origin: 'http://evil.example.com' }, 4100)?.status).toBe(403);
    expect(checkLoopbackRequest({ host: '127.0.0.1:4100', origin: 'http://localhost:9999' }, 4100)?.status).toBe(403);
    expect(checkLoopbackRequest({ host: '127.0.0.1:4100', origin: 'https://app.example' }, 4100, ['https://app.example'])).toBeUndefined();
  });
});
