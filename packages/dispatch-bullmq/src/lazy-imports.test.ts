import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

// The cold-start rule: importing @weir/dispatch-bullmq must not load bullmq or ioredis. They are
// imported when the plugin loads or the worker starts, with `await import(...)`; elsewhere only
// `import type`, which TypeScript erases.
it('no source file imports bullmq or ioredis at module load', () => {
  const here = new URL('./', import.meta.url);
  const sources = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  expect(sources.length).toBeGreaterThan(3);
  const eager: string[] = [];
  for (const name of sources) {
    const text = readFileSync(new URL(name, here), 'utf8');
    for (const match of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(bullmq|ioredis)'/gms)) eager.push(`${name}: ${match[0].trim()}`);
    for (const match of text.matchAll(/^\s*import\s+'(bullmq|ioredis)'/gm)) eager.push(`${name}: ${match[0].trim()}`);
  }
  expect(eager).toEqual([]);
  // And the lazy imports are there (the rule is not met by not using the libraries at all).
  const all = sources.map((name) => readFileSync(new URL(name, here), 'utf8')).join('\n');
  expect(all).toContain("await import('bullmq')");
  expect(all).toContain("await import('ioredis')");
});
