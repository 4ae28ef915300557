import { pipelineBench } from './pipeline-bench.js';

console.log(`weir benchmarks - Node ${process.version}, ${process.platform}/${process.arch}`);
await pipelineBench();
