import { expect, it } from 'vitest';
import { promptContent } from './prompt-content.js';

it('keeps a text-only prompt a string', () => {
  expect(promptContent([{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }])).toBe('one\ntwo');
});

it('passes an embedded file (unsaved edits included) as a resource with its text', () => {
  expect(promptContent([{ type: 'text', text: 'see' }, { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'let a = 1;', mimeType: 'text/x-typescript' } }])).toEqual([
    { type: 'text', text: 'see' },
    { type: 'resource', uri: 'file:///w/a.ts', text: 'let a = 1;', mediaType: 'text/x-typescript' },
  ]);
});
