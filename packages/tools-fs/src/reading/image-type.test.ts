import { describe, expect, it } from 'vitest';
import { imageTypeOf } from './image-type.js';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((value) => (typeof value === 'string' ? [...value].map((char) => char.charCodeAt(0)) : [value])));

describe('imageTypeOf', () => {
  it.each([
    ['image/png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13)],
    ['image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF')],
    ['image/gif', bytes('GIF89a', 1, 0, 1, 0)],
    ['image/gif', bytes('GIF87a', 1, 0, 1, 0)],
    ['image/webp', bytes('RIFF', 0x24, 0, 0, 0, 'WEBP')],
  ])('knows %s by its signature', (type, head) => {
    expect(imageTypeOf(head)).toBe(type);
  });

  it.each([
    ['text', bytes('hello world!')],
    ['a RIFF that is not WebP', bytes('RIFF', 0x24, 0, 0, 0, 'WAVE')],
    ['GIF without its version', bytes('GIF8xa', 0, 0)],
    ['too short', bytes(0x89, 'PN')],
    ['empty', bytes()],
  ])('is not fooled by %s', (_, head) => {
    expect(imageTypeOf(head)).toBeUndefined();
  });
});
