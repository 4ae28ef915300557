// The weir client for the conformance suite's client scenarios: the suite appends the server URL
// and names the scenario in MCP_CONFORMANCE_SCENARIO. It is mcpServer({ url }) and an approver that
// accepts what it is shown (the scenario's server asks to "accept with defaults": the approver is
// shown the form filled with its schema's defaults, and accepting sends them).
// Run: conformance client --command "tsx --conditions=@weir/source conformance/client.ts" --scenario initialize
import { createHarness, definePlugin } from '@weir/core';
import { mcpServer } from '../src/index.js';

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const harness = createHarness();
let failed = false;
try {
  await harness.use(definePlugin({ name: 'conformance-approver', setup: (ctx) => void ctx.approval.setResponder(() => ({ decision: 'allow' })) }));
  await harness.use(mcpServer({ name: 'conformance', url, tiers: { '*': 'read-only' } }));
  const calls: Record<string, { name: string; arguments: Record<string, unknown> }> = {
    tools_call: { name: 'conformance__add_numbers', arguments: { a: 5, b: 3 } },
    'sse-retry': { name: 'conformance__test_reconnection', arguments: {} },
    'elicitation-sep1034-client-defaults': { name: 'conformance__test_client_elicitation_defaults', arguments: {} },
  };
  const call = calls[scenario];
  if (call !== undefined) {
    const result = await harness.executeToolCall({ id: 'conformance-1', ...call });
    process.stdout.write(`${result.ok ? 'ok' : 'error'}: ${result.content}\n`);
    failed = !result.ok;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  failed = true;
} finally {
  await harness.close();
}
process.exit(failed ? 1 : 0);
