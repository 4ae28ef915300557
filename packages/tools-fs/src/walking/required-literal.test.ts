import { describe, expect, it } from 'vitest';
import { requiredLiteral } from './required-literal.js';

describe('requiredLiteral', () => {
  it('finds the longest run every match must contain', () => {
    expect(requiredLiteral('function\\s+main', false)).toBe('function');
    expect(requiredLiteral('needle_[0-9]+', false)).toBe('needle_');
    expect(requiredLiteral('import .* from "weir"', false)).toBe(' from "weir"');
    expect(requiredLiteral('a\\.b\\(c', false)).toBe('a.b(c');
  });

  it('drops a character made optional by a quantifier, and gives up where it cannot tell', () => {
    expect(requiredLiteral('colou?r', false)).toBe('colo');
    expect(requiredLiteral('abcd{0,2}e', false)).toBe('abc');
    expect(requiredLiteral('cat|dog', false)).toBeUndefined();
    expect(requiredLiteral('(cat|dog)food', false)).toBe('food');
    expect(requiredLiteral('\\w+', false)).toBeUndefined();
    expect(requiredLiteral('x', false)).toBeUndefined();
    expect(requiredLiteral('(?<=pre)post', false)).toBe('post');
  });

  it('takes fixed strings as they are, ASCII only', () => {
    expect(requiredLiteral('a.b*c', true)).toBe('a.b*c');
    expect(requiredLiteral('café au lait', true)).toBe(' au lait');
    expect(requiredLiteral('one\ntwo three', true)).toBe('two three');
  });
});
