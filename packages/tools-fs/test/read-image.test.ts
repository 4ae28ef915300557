import { describe, expect, it } from 'vitest';
import { useWorkspace } from './helpers/use-workspace.js';

// A 1x1 PNG, 70 bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b])]);

describe('read_file and images', () => {
  const ws = useWorkspace();

  it('returns a PNG as an image part, known by its bytes, not its name', async () => {
    await ws.fx.file('shots/screen.dat', PNG);
    const h = await ws.harness();
    const result = await h.call('read_file', { path: 'shots/screen.dat' });
    expect(result).toMatchObject({ ok: true, content: 'shots/screen.dat: image/png image, 70 bytes' });
    expect(result.parts).toEqual([
      { type: 'text', text: 'shots/screen.dat: image/png image, 70 bytes' },
      { type: 'image', data: PNG.toString('base64'), mediaType: 'image/png' },
    ]);
  });

  it('returns GIF too, and reads a text file named .png as text', async () => {
    await ws.fx.file('a.gif', GIF);
    await ws.fx.file('fake.png', 'just text\n');
    const h = await ws.harness();
    expect((await h.call('read_file', { path: 'a.gif' })).parts?.[1]).toMatchObject({ type: 'image', mediaType: 'image/gif' });
    const fake = await h.call('read_file', { path: 'fake.png' });
    expect(fake).toMatchObject({ ok: true, content: '     1\tjust text' });
    expect(fake.parts).toBeUndefined();
  });

  it('refuses an image over the cap as TOO_LARGE: an image is never cut', async () => {
    await ws.fx.file('big.png', Buffer.concat([PNG, Buffer.alloc(200)]));
    const h = await ws.harness({ maxImageBytes: 100 });
    const result = await h.call('read_file', { path: 'big.png' });
    expect(result).toMatchObject({ ok: false, error: { code: 'TOO_LARGE' } });
    expect(result.content).toContain('over the 100-byte limit for images');
  });
});
