import { describe, expect, it } from 'vitest';
import { capContent, renderValue } from './render-content.js';

describe('renderValue', () => {
  it('renders cycles deep in a structure without throwing', () => {
    const a: Record<string, unknown> = { name: 'a' };
    const b: Record<string, unknown> = { name: 'b', a };
    a.b = b;
    expect(JSON.parse(renderValue({ root: a }))).toEqual({ root: { name: 'a', b: { name: 'b', a: '[Circular]' } } });
  });

  it('renders maps, sets, errors, symbols and typed arrays readably', () => {
    const rendered = JSON.parse(renderValue({ map: new Map([['k', 1]]), set: new Set(['x']), error: new TypeError('bad'), sym: Symbol('s'), bytes: new Uint8Array(3) }));
    expect(rendered).toEqual({ map: { k: 1 }, set: ['x'], error: { name: 'TypeError', message: 'bad' }, sym: 'Symbol(s)', bytes: '[Uint8Array 3 bytes]' });
  });

  it('survives a getter that throws', () => {
    const hostile = {
      get boom() {
        throw new Error('no access');
      },
    };
    expect(renderValue(hostile)).toContain('unrenderable value: no access');
  });
});

describe('capContent', () => {
  it('leaves short content alone and never splits a surrogate pair', () => {
    expect(capContent('short', 10)).toBe('short');
    const emoji = '😀'.repeat(10);
    const capped = capContent(emoji, 5);
    expect(capped.startsWith('😀😀')).toBe(true);
    expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(capped).toContain('truncated');
  });
});
