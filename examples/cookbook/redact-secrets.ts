// Recipe: a result transform that redacts secrets in postExecute, before the model sees them.
// A replaced value is validated and rendered again; a tap that throws fails the call closed.
import { createHarness, definePlugin, defineTool } from '@weir/core';
import { describeResult, runIfMain } from './run-if-main.js';

const SECRETS = [/sk-[A-Za-z0-9]{20,}/g, /AKIA[0-9A-Z]{16}/g, /(password\s*[=:]\s*)\S+/gi];

export function redact(text: string): string {
  return SECRETS.reduce((redacted, pattern) => redacted.replace(pattern, (_match, prefix?: string) => `${typeof prefix === 'string' ? prefix : ''}[REDACTED]`), text);
}

export const redactSecrets = definePlugin({
  name: 'redact-secrets',
  setup(ctx) {
    ctx.hooks.postExecute.tap((result) => {
      const redacted = redact(result.content);
      if (redacted === result.content) return undefined;
      return result.ok ? { action: 'replace', value: redacted } : { action: 'block', reason: 'the error message contained a secret' };
    });
  },
});

const readEnv = defineTool({
  name: 'read_env',
  description: 'Reads the project .env file.',
  tier: 'read-only',
  parameters: { type: 'object', properties: {} },
  execute: () => 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx\nAWS_KEY=AKIAABCDEFGHIJKLMNOP\ndb password=hunter2\nDEBUG=true',
});

export async function main(): Promise<string[]> {
  const harness = createHarness();
  harness.tools.register(readEnv);
  await harness.use(redactSecrets);
  return [describeResult('read_env', await harness.executeToolCall({ id: 'e1', name: 'read_env', arguments: {} }))];
}

await runIfMain(import.meta.url, main);
