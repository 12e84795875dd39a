/**
 * The GPU Ising benchmark's options, result and markdown table: shared by the page (bench/gpu/ising.ts) and the two
 * runners in Node (bench/gpu/run.ts on a real GPU, bench/suites/ising-gpu-browser.ts on SwiftShader).
 */
export interface IsingBenchOptions {
  /** Lattice sides (default 316 and 1000: about 10⁵ and 10⁶ spins). */
  sides?: number[];
  /** Each timing doubles its sweeps until one run takes this long (default 1 s). */
  minSeconds?: number;
  /** Skip the CPU reference (it takes minSeconds per side as well). */
  skipCpu?: boolean;
}

export interface IsingBenchRow {
  side: number;
  spins: number;
  /** Sweeps in the timed run, and its updates/s: the kernel alone, and with the per-step records the live view reads. */
  kernel: { steps: number; seconds: number; updatesPerSecond: number };
  recorded: { steps: number; seconds: number; updatesPerSecond: number };
  /** One live frame's cost beyond its sweeps: packing and reading back the spins (ms). */
  readSpinsMs: number;
  cpu: { steps: number; seconds: number; updatesPerSecond: number } | null;
}

export interface IsingBenchResult {
  adapter: string;
  software: boolean;
  rows: IsingBenchRow[];
}

/** The markdown table both runners print. */
export function isingTable(r: IsingBenchResult): string {
  const m = (x: number) => (x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : `${(x / 1e6).toFixed(1)} M`);
  return [
    '| lattice | spins | GPU kernel, updates/s | GPU with per-step records (the live view), updates/s | spin readback per frame, ms | CPU path (sync, page main thread), updates/s | GPU ÷ CPU |',
    '|---|---|---|---|---|---|---|',
    ...r.rows.map(
      (row) =>
        `| ${row.side}×${row.side} | ${row.spins.toLocaleString('en-US')} | ${m(row.kernel.updatesPerSecond)} (${row.kernel.steps} sweeps in ${row.kernel.seconds.toFixed(2)} s) | ${m(row.recorded.updatesPerSecond)} | ${row.readSpinsMs.toFixed(1)} | ${row.cpu ? m(row.cpu.updatesPerSecond) : '–'} | ${row.cpu ? (row.recorded.updatesPerSecond / row.cpu.updatesPerSecond).toFixed(2) : '–'} |`,
    ),
  ].join('\n');
}
