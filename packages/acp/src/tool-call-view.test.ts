import { expect, it } from 'vitest';
import { toolCallView } from './tool-call-view.js';

it('shows a file tool by its kind, its path made absolute, and an edit as the file it changes', () => {
  expect(toolCallView('read_file', { path: 'src/a.ts', offset: 10 }, '/w')).toEqual({ kind: 'read', title: 'read_file src/a.ts', locations: [{ path: '/w/src/a.ts', line: 10 }], edits: undefined });
  expect(toolCallView('edit_file', { file_path: 'b.ts' }, '/w')).toMatchObject({ kind: 'edit', edits: '/w/b.ts' });
});

it('shows a shell command by its command line, and any other tool by its name', () => {
  expect(toolCallView('run_command', { command: 'npm test' }, '/w')).toMatchObject({ kind: 'execute', title: 'run_command: npm test', locations: [] });
  expect(toolCallView('echo__echo', 'not an object', '/w')).toEqual({ kind: 'other', title: 'echo__echo', locations: [], edits: undefined });
});
