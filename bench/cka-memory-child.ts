/**
 * Memory of CKA for a 1B-shaped model (16 layers × H = 2048, m = 2000 probes), in a process of its own so that its
 * peak RSS is its own. `worker`: what one grid worker does (every layer's Gram statistics, one at a time, each
 * handed off as the pool transfers it), as the peak RSS above the stack itself. `pool`: the whole pool CKA of the
 * model against itself (host: stacks, both sides' statistics; workers: their products). Prints one JSON line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gramInfo, cka } from '../src/core/cka.ts';
import { createRng } from '../src/core/rng.ts';
import { createNodeGridPool } from '../cli/grid-pool-node.ts';

const mode = process.argv[2] ?? 'worker';
const L = 16;
const H = 2048;
const m = 2000;
const MiB = 2 ** 20;
const rng = createRng('cka-1b');
const data = new Float32Array(m * L * H);
for (let i = 0; i < data.length; i++) data[i] = rng.normal();
const stack = { data, n: m, L, H };
const rss = () => process.memoryUsage().rss;
const base = rss();
const t = performance.now();
if (mode === 'worker') {
  let kept = 0;
  for (let l = 0; l < L; l++) kept += gramInfo(stack, l).off.length; // dropped at once, as a transfer would
  void kept;
} else {
  const pool = createNodeGridPool(2);
  const grams = await pool.gramStats(stack);
  cka(stack, stack, { gramsX: grams, gramsY: grams });
  pool.close();
}
const seconds = (performance.now() - t) / 1000;
// The peak of this process (every thread): VmHWM, this address space's high-water mark. getrusage's maxRSS is not
// used: on Linux a child started by a large parent inherits the parent's peak (the suite's parent holds 2 GB of
// states by then, and the child reported 1.8 GB for work that peaks at 0.2 GB).
const hwm = /VmHWM:\s+(\d+) kB/.exec(existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '');
const peak = hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  JSON.stringify({ mode, stackMiB: (L * H * m * 4) / MiB, baseMiB: base / MiB, peakMiB: peak / MiB, aboveBaseMiB: (peak - base) / MiB, seconds }) + '\n',
);
