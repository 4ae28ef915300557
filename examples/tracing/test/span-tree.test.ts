import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('examples/tracing', () => {
  it('prints the span tree of one turn with the GenAI conventions\' names, the tool under the step that asked for it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--conditions=@weir/source', here('../span-tree.ts')], { cwd: here('..'), timeout: 60_000 });
    const lines = stdout.split('\n');
    expect(lines).toContain('[user] read file notes.txt');
    const tree = lines.filter((text) => /(invoke_agent|chat|execute_tool) /.test(text));
    expect(tree).toHaveLength(4);
    expect(tree[0]).toMatch(/^invoke_agent weir {2}[\d.]+ ms {2}\[stop_reason=stop\]$/);
    expect(tree[1]).toMatch(/^├─ chat rules {2}[\d.]+ ms {2}\[finish_reasons=tool_calls\]$/);
    expect(tree[2]).toMatch(/^│ {2}└─ execute_tool read_file {2}[\d.]+ ms {2}\[id=\S+ tier=read-only attempts=1\]$/);
    expect(tree[3]).toMatch(/^└─ chat rules {2}[\d.]+ ms {2}\[finish_reasons=stop\]$/);
    expect(stdout).toMatch(/· weir\.validate [\d.]+ ms/);
    expect(stdout).toMatch(/· weir\.attempt [\d.]+ ms {2}attempt=1 attempt\.ok=true/);
    // captureContent is off: the file's text is in the answer, never in the tree.
    const treeText = lines.slice(lines.findIndex((text) => text.startsWith('invoke_agent'))).join('\n');
    expect(treeText).not.toContain('Tuesday');
  }, 90_000);
});
