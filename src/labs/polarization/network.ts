import type { Rng } from '../../core/rng';
import { randomDirected, ringLattice, smallWorld, type DirectedGraph } from '../../core/graphs/directed';
import type { SafeTensor } from '../../core/safetensors';
import type { ConfigOf } from '../../core/config/lab-definition';
import type { polarizationLab } from './config';

export type PolarizationConfig = ConfigOf<typeof polarizationLab>;

export function buildNetwork(config: PolarizationConfig, rng: Rng): DirectedGraph {
  const { generator, degree, rewireProbability } = config.network;
  if (generator === 'ring') return ringLattice(config.agents, degree);
  if (generator === 'smallWorld') return smallWorld(config.agents, degree, rewireProbability, rng);
  return randomDirected(config.agents, degree, rng);
}

/** Out-links as CSR tensors, so an episode can hand its network to the next one (and a resumed run). */
export function networkToTensors(g: DirectedGraph): Record<string, SafeTensor> {
  const ptr = new Int32Array(g.n + 1);
  g.out.forEach((row, i) => (ptr[i + 1] = ptr[i] + row.length));
  const idx = new Int32Array(ptr[g.n]);
  g.out.forEach((row, i) => idx.set(row, ptr[i]));
  return { outPtr: { dtype: 'I32', shape: [g.n + 1], data: ptr }, outIdx: { dtype: 'I32', shape: [idx.length], data: idx } };
}

export function networkFromTensors(t: Record<string, SafeTensor>): DirectedGraph {
  const ptr = t.outPtr?.data;
  const idx = t.outIdx?.data;
  if (!(ptr instanceof Int32Array) || !(idx instanceof Int32Array)) throw new Error('the previous episode has no network (outPtr/outIdx)');
  const n = ptr.length - 1;
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from(idx.subarray(ptr[i], ptr[i + 1]));
    if (row.some((j) => j < 0 || j >= n)) throw new Error('the previous episode holds a link to a node that does not exist');
    out.push(row);
  }
  return { n, out };
}
