import { describe, expect, it } from 'vitest';
import { findDeclaredPaths, parsePointer } from './declared-paths.js';

const values = (args: Record<string, unknown>, ...specs: Parameters<typeof findDeclaredPaths>[1]) =>
  findDeclaredPaths(args, specs).map(({ argument, value, missing }) => [argument, value, missing]);

describe('findDeclaredPaths', () => {
  it('reads top-level, nested and array places', () => {
    expect(values({ path: 'a' }, { argument: 'path' })).toEqual([['path', 'a', false]]);
    expect(values({ file_path: 'b' }, { argument: 'file_path' })).toEqual([['file_path', 'b', false]]);
    expect(values({ options: { target: 'c' } }, { argument: 'options.target' })).toEqual([['options.target', 'c', false]]);
    expect(values({ paths: ['d', 'e'] }, { argument: 'paths[]' })).toEqual([
      ['paths[0]', 'd', false],
      ['paths[1]', 'e', false],
    ]);
    expect(values({ edits: [{ file_path: 'f' }, { file_path: 'g' }] }, { argument: 'edits[].file_path' })).toEqual([
      ['edits[0].file_path', 'f', false],
      ['edits[1].file_path', 'g', false],
    ]);
  });

  it('an omitted argument takes its default; without one it is missing', () => {
    expect(values({}, { argument: 'path', default: '.' })).toEqual([['path', '.', false]]);
    expect(values({}, { argument: 'path' })).toEqual([['path', undefined, true]]);
    expect(values({ edits: [{}] }, { argument: 'edits[].file_path' })).toEqual([['edits[0].file_path', undefined, true]]);
  });

  it('hands a value that is not a string on as it is (the rule fails closed on it)', () => {
    expect(values({ path: 7 }, { argument: 'path' })).toEqual([['path', 7, false]]);
    expect(values({ paths: 'x' }, { argument: 'paths[]' })).toEqual([['paths', 'x', false]]);
  });

  it('a malformed pointer is missing, never ignored', () => {
    expect(parsePointer('a..b')).toBeUndefined();
    expect(values({ a: 'x' }, { argument: 'a[' })).toEqual([['a[', undefined, true]]);
  });
});
