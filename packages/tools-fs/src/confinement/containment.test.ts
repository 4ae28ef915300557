import { describe, expect, it } from 'vitest';
import { isInside, relativeInside } from './containment.js';

describe('isInside and relativeInside', () => {
  it.each([
    ['/ws', '/ws', true, '.'],
    ['/ws', '/ws/a', true, 'a'],
    ['/ws', '/ws/a/b.txt', true, 'a/b.txt'],
    ['/ws', '/ws/..foo', true, '..foo'],
    ['/ws', '/ws/...', true, '...'],
    ['/ws', '/ws_evil', false, undefined],
    ['/ws', '/ws_evil/notes.txt', false, undefined],
    ['/ws', '/wsx', false, undefined],
    ['/ws', '/', false, undefined],
    ['/ws', '/other', false, undefined],
    ['/home/dev/proj', '/home/dev/proj_evil/x', false, undefined],
    ['/home/dev/proj', '/home/dev', false, undefined],
    ['/', '/anything', true, 'anything'],
  ])('root %s, candidate %s: inside %s', (root, candidate, inside, relative) => {
    expect(isInside(root, candidate)).toBe(inside);
    expect(relativeInside(root, candidate)).toBe(relative);
  });
});
