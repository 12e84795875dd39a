// worker_threads entry for bench/suites/ising.ts: runs one kernel off the main thread and posts its timing back.
import { parentPort, workerData } from 'node:worker_threads';
import { runKernel, type Variant } from './ising-kernels';

const { variants, steps } = workerData as { variants: Variant[]; steps: number };
runKernel('sync-table', 5); // warm the JIT before timing
parentPort!.postMessage(variants.map((v) => runKernel(v, steps)));
