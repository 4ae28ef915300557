#!/usr/bin/env node
// The `weir` binary. It imports nothing but what the command needs: `--version` reads one file,
// and every other module is loaded by the path that uses it (cold start: docs/design.md).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
} else {
  const { main } = await import('./main.js');
  const status = await main(args);
  // Exit now: an MCP server's pipes or a half-done call's timer must not keep a finished weir alive.
  // Writes to terminals, pipes and files are synchronous on Linux, so nothing printed is lost.
  process.exit(status);
}
