import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weir-mcp-config-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('examples/mcp-config', () => {
  it('loads the servers of a config, lists their tools and runs calls through the policy', async () => {
    // The same config as mcp.json, with the server run by node from node_modules (offline) instead of npx.
    const config = join(dir, 'mcp.json');
    const bin = here('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    writeFileSync(config, JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [bin, here('../workspace')], tiers: { read_text_file: 'read-only', list_directory: 'read-only', '*': 'write' } } } }));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=@weir/source', here('../run-mcp-tools.ts'), '--config', config, 'fs__read_text_file', JSON.stringify({ path: here('../workspace/notes.txt') }), 'fs__move_file', JSON.stringify({ source: 'a', destination: 'b' })],
      { cwd: here('..'), timeout: 60_000 },
    );
    expect(stdout).toMatch(/tools: .*fs__read_text_file/);
    expect(stdout).toContain('[fs__read_text_file] ok: Notes the MCP filesystem server can read.');
    expect(stdout).toMatch(/\[fs__move_file\] ERR DENIED/);
  }, 90_000);
});
