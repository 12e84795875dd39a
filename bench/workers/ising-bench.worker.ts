// worker_threads entry for bench/suites/ising.ts: runs one kernel off the main thread and posts its timing back.
import { parentPort, workerData } from 'node:worker_threads';
import { bestOf, runKernel, type Variant } from './ising-kernels';

const { variants, steps, repeats } = workerData as { variants: Variant[]; steps: number; repeats: number };
runKernel('sync-table', 5); // warm the JIT before timing
parentPort!.postMessage(variants.map((v) => bestOf(repeats, () => runKernel(v, steps))));
