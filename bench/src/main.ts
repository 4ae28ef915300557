import { agentStepBench, printAgentStepComparison } from './agent-step-bench.js';
import { aiSdkToolsBench } from './ai-sdk-tools-bench.js';
import { agentStepCpuBench } from './agent-step-cpu.js';
import { checkpointsBench } from './checkpoints-bench.js';
import { cliStartupBench } from './cli-startup-bench.js';
import { coldStartBench } from './cold-start-bench.js';
import { hooksBench } from './hooks-bench.js';
import { hotReloadBench } from './hot-reload-bench.js';
import { mcpBench } from './mcp-bench.js';
import { otelBench } from './otel-bench.js';
import { formatPeerTable, measurePeers } from './peers/measure-peers.js';
import { pipelineBench } from './pipeline-bench.js';
import { scaleOutBench } from './scale-out/scale-out-bench.js';
import { searchBench } from './search-bench.js';
import { shellBench } from './shell-bench.js';
import { shellNetworkBench } from './shell-network-bench.js';

// `pnpm bench -- --quick`: every part shortened, rough figures, to check the benchmarks run.
const quick = process.argv.includes('--quick');
// `pnpm bench -- --only=scale-out`, `--only=mcp`, `--only=cli`, `--only=search`, `--only=checkpoints`, `--only=otel`, `--only=ai-sdk`, `--only=providers`, `--only=shell-network`, `--only=hooks` or `--only=session-stores`: one section alone.
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
if (only === 'session-stores') {
  const { sessionStoresBench } = await import('./session-stores/session-stores-bench.js');
  console.log(`weir benchmarks (session stores only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await sessionStoresBench({ quick });
  process.exit(0);
}
if (only === 'scale-out') {
  console.log(`weir benchmarks (scale-out only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await runScaleOut();
  process.exit(0);
}
if (only === 'mcp') {
  console.log(`weir benchmarks (mcp only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await mcpBench({ quick });
  process.exit(0);
}

if (only === 'cli') {
  // The weir binary's start-up, on the built binary (the bench script builds first).
  console.log(`weir benchmarks (cli only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await cliStartupBench({ quick });
  process.exit(0);
}

if (only === 'ai-sdk') {
  console.log(`weir benchmarks (ai-sdk only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await aiSdkToolsBench({ quick });
  process.exit(0);
}

if (only === 'providers') {
  const { providerStreamBench } = await import('./provider-stream-bench.js');
  console.log(`weir benchmarks (providers only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await providerStreamBench({ quick });
  process.exit(0);
}

if (only === 'hooks') {
  console.log(`weir benchmarks (hooks only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await hooksBench({ quick });
  process.exit(0);
}

if (only === 'otel') {
  console.log(`weir benchmarks (otel only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await otelBench();
  process.exit(0);
}

if (only === 'core') {
  // The pipeline, the agent step and the peers' agent step: what the core's speed claims rest on.
  console.log(`weir benchmarks (core only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await pipelineBench();
  await agentStepCpuBench();
  const step = await agentStepBench();
  const peerFigures = await measurePeers({ quick });
  console.log(formatPeerTable(peerFigures));
  printAgentStepComparison(step, peerFigures);
  process.exit(0);
}

if (only === 'checkpoints') {
  console.log(`weir benchmarks (checkpoints only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await checkpointsBench({ quick });
  process.exit(0);
}

if (only === 'shell-network') {
  console.log(`weir benchmarks (shell-network only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await shellNetworkBench({ quick });
  process.exit(0);
}

if (only === 'search') {
  console.log(`weir benchmarks (search only) - Node ${process.version}, ${process.platform}/${process.arch}`);
  await searchBench({ quick });
  process.exit(0);
}

console.log(`weir benchmarks - Node ${process.version}, ${process.platform}/${process.arch}`);
// `pnpm bench -- --cold-start` (or `--only=cold-start`): only the cold-start section.
if (process.argv.includes('--cold-start') || only === 'cold-start') {
  coldStartBench({ quick });
  process.exit(0);
}
await pipelineBench();
await hotReloadBench();
await otelBench();
await aiSdkToolsBench({ quick });
const agentStep = await agentStepBench();
await shellBench({ quick });
await shellNetworkBench({ quick });
await hooksBench({ quick });
await checkpointsBench({ quick });

console.log('\npeers: the same agent turn (K echo tool steps, then text) on other SDKs, each in its own process beside a bare async loop');
const peers = await measurePeers({ quick });
console.log(formatPeerTable(peers));
printAgentStepComparison(agentStep, peers);
coldStartBench({ quick });
await cliStartupBench({ quick });

await runScaleOut();
await mcpBench({ quick });
await searchBench({ quick });

async function runScaleOut(): Promise<void> {
  console.log('\nscale-out: echo through BullMQ on a local redis-server, worker processes on this machine');
  await scaleOutBench({ quick });
}
