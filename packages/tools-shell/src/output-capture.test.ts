import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

describe('OutputCapture', () => {
  it('keeps everything under the cap', () => {
    const capture = new OutputCapture(10);
    capture.push(Buffer.from('abc'));
    capture.push(Buffer.from('def'));
    expect(capture.text()).toBe('abcdef');
    expect(capture.elidedBytes).toBe(0);
  });

  it('keeps the head and the tail and counts the middle, across chunk seams', () => {
    const capture = new OutputCapture(8);
    const whole = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let at = 0; at < whole.length; at += 3) capture.push(Buffer.from(whole.slice(at, at + 3)));
    expect(capture.totalBytes).toBe(26);
    expect(capture.elidedBytes).toBe(18);
    expect(capture.text()).toBe('ABCD\n[... 18 bytes of output elided ...]\nWXYZ');
  });

  it('takes the tail of one chunk larger than the cap', () => {
    const capture = new OutputCapture(6);
    capture.push(Buffer.from('0123456789'));
    expect(capture.text()).toBe('012\n[... 4 bytes of output elided ...]\n789');
  });

  it('matches a plain head and tail for any chunking (property)', () => {
    for (let seed = 1; seed < 200; seed++) {
      const length = (seed * 37) % 97;
      const data = Buffer.from(Array.from({ length }, (_, i) => 97 + ((i * seed) % 26)));
      const cap = 1 + (seed % 20);
      const capture = new OutputCapture(cap);
      for (let at = 0; at < data.length; ) {
        const size = 1 + ((at + seed) % 7);
        capture.push(data.subarray(at, at + size));
        at += size;
      }
      const head = Math.ceil(cap / 2);
      const tail = Math.floor(cap / 2);
      const elided = Math.max(0, data.length - head - tail);
      const expected = elided === 0 ? data.toString() : `${data.subarray(0, head)}\n[... ${elided} bytes of output elided ...]\n${tail === 0 ? '' : data.subarray(data.length - tail)}`;
      expect(capture.text(), `seed ${seed}`).toBe(expected);
    }
  });
});
