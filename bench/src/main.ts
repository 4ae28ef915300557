import { formatPeerTable, measurePeers } from './peers/measure-peers.js';
import { pipelineBench } from './pipeline-bench.js';

console.log(`weir benchmarks - Node ${process.version}, ${process.platform}/${process.arch}`);
await pipelineBench();

console.log('\npeers: the same agent turn (K echo tool steps, then text) on other SDKs, each in its own process beside a bare async loop');
console.log(formatPeerTable(await measurePeers()));
