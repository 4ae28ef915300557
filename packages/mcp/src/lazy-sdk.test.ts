import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Cold start: importing @weir/mcp must not load the SDK (a few hundred modules); only a plugin's
// setup does, through loadClientSdk / loadServerSdk. A static import of the SDK anywhere in src
// would load it with the package, so every static import of it must be `import type`.
describe('the SDK is imported lazily', () => {
  it('no file in src imports the SDK at module level', () => {
    const offenders: string[] = [];
    // Folders too (oauth/): a static import there loads the SDK with the package as well.
    for (const file of readdirSync(new URL('.', import.meta.url), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const text = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const match of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(@modelcontextprotocol\/sdk[^']*)'/gms)) offenders.push(`${file}: ${match[2]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the check finds a static import (it can fail)', () => {
    const sample = "import { Client } from '@modelcontextprotocol/sdk/client/index.js';";
    expect([...sample.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(@modelcontextprotocol\/sdk[^']*)'/gms)]).toHaveLength(1);
  });
});
