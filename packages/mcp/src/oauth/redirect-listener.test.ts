import { describe, expect, it } from 'vitest';
import { listenForRedirect } from './redirect-listener.js';

describe('listenForRedirect', () => {
  it('gives the code of the return whose state matches, refusing another state', async () => {
    const listener = await listenForRedirect(0);
    try {
      const code = listener.code('good', 60_000);
      expect((await fetch(`${listener.url}?code=stolen&state=bad`)).status).toBe(400);
      expect((await fetch(`${listener.url}?code=c1&state=good`)).status).toBe(200);
      expect(await code).toBe('c1');
    } finally {
      await listener.close();
    }
  });

  it('closing it ends a login still waited for (a step-up abandoned with its session), not only at the timeout', async () => {
    const listener = await listenForRedirect(0);
    const code = listener.code('state', 600_000);
    await listener.close();
    await expect(code).rejects.toThrow(/abandoned/);
  });
});
