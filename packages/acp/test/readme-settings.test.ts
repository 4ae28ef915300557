// The README's settings fragments for Zed and JetBrains IDEs are what users paste: they must parse
// and start `weir acp` in the shape each editor reads.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The JSON block that follows the first line mentioning `editor`. */
function fragmentAfter(editor: string): unknown {
  const start = readme.indexOf(editor, readme.indexOf('## Add weir to your editor'));
  expect(start, `the README names ${editor}`).toBeGreaterThan(0);
  const block = /```json\n([\s\S]*?)```/.exec(readme.slice(start));
  expect(block, `a JSON block after ${editor}`).not.toBeNull();
  return JSON.parse(block![1]!);
}

it('the Zed fragment is a custom agent server running weir acp', () => {
  expect(fragmentAfter('Zed, in `~/.config/zed/settings.json`')).toEqual({ agent_servers: { weir: { type: 'custom', command: 'weir', args: ['acp'], env: {} } } });
});

it('the JetBrains fragment is an acp.json agent running weir acp', () => {
  expect(fragmentAfter('A JetBrains IDE')).toEqual({ agent_servers: { weir: { command: 'weir', args: ['acp'], env: {} } } });
});
