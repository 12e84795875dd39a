/**
 * Classic no-LLM baselines on the same directed networks: the coevolving voter model and bounded confidence
 * (Deffuant), seeded. One epoch = N random link events, so epochs compare with the LLM runs' epochs.
 */
import type { Rng } from '../rng';
import { uniformNewTarget, type DirectedGraph } from '../graphs/directed';
import { homophily, polarization } from './metrics';

/** Opinions with the seed's shares (default P(±2) = 0.1, P(±1) = 0.2, P(0) = 0.4), exact counts on random nodes. */
export function initialOpinions(n: number, rng: Rng, shares: readonly number[] = [0.1, 0.2, 0.4, 0.2, 0.1]): number[] {
  const tot = shares.reduce((a, b) => a + b, 0);
  const counts = shares.map((s) => Math.floor((s / tot) * n));
  // Largest remainders fill the rounding gap, so the counts sum to n.
  const rem = shares.map((s, k) => ({ k, r: (s / tot) * n - counts[k] })).sort((a, b) => b.r - a.r);
  for (let k = 0; counts.reduce((a, b) => a + b, 0) < n; k++) counts[rem[k % rem.length].k]++;
  const x: number[] = [];
  counts.forEach((c, k) => {
    for (let m = 0; m < c; m++) x.push(k - 2);
  });
  return rng.shuffle(x);
}

export interface BaselineRun {
  /** P(t), t = 0..epochs. */
  P: Float64Array;
  /** H(t), t = 0..epochs. */
  H: Float64Array;
  /** Opinions at every epoch start, (epochs+1) rows. */
  history: number[][];
  final: number[];
  graph: DirectedGraph;
  rewires: number;
}

function cloneGraph(g: DirectedGraph): DirectedGraph {
  return { n: g.n, out: g.out.map((r) => r.slice()) };
}

/**
 * What one link event does: agent i meets out-neighbour j = row[e]. It may change x in place, and returns a new
 * target for link e when i rewires (or −1 when it keeps the link).
 */
type LinkEvent = (i: number, e: number, row: number[], x: number[], g: DirectedGraph) => number;

/** The epoch loop both classic models share: N random link events per epoch, P and H recorded after each. */
function runEpochs(g0: DirectedGraph, x0: readonly number[], epochs: number, rng: Rng, event: LinkEvent): BaselineRun {
  const g = cloneGraph(g0);
  const x = x0.slice();
  const P = new Float64Array(epochs + 1);
  const H = new Float64Array(epochs + 1);
  const history = [x.slice()];
  P[0] = polarization(x);
  H[0] = homophily(g, x);
  let rewires = 0;
  for (let ep = 1; ep <= epochs; ep++) {
    for (let step = 0; step < g.n; step++) {
      const i = rng.int(g.n);
      const row = g.out[i];
      if (!row.length) continue;
      const e = rng.int(row.length);
      const target = event(i, e, row, x, g);
      if (target >= 0) {
        row[e] = target;
        rewires++;
      }
    }
    history.push(x.slice());
    P[ep] = polarization(x);
    H[ep] = homophily(g, x);
  }
  return { P, H, history, final: x, graph: g, rewires };
}

/**
 * Coevolving voter model: pick a random agent i and a random out-neighbour j; if they disagree, with probability φ
 * i drops j and links to a uniformly random agent holding i's opinion (not already linked), else i adopts x_j.
 */
export function coevolvingVoter(g0: DirectedGraph, x0: readonly number[], o: { phi: number; epochs: number }, rng: Rng): BaselineRun {
  return runEpochs(g0, x0, o.epochs, rng, (i, e, row, x, g) => {
    const j = row[e];
    if (x[i] === x[j]) return -1;
    if (rng.next() < o.phi) {
      const like: number[] = [];
      for (let k = 0; k < g.n; k++) if (k !== i && x[k] === x[i] && !row.includes(k)) like.push(k);
      return like.length ? like[rng.int(like.length)] : -1;
    }
    x[i] = x[j];
    return -1;
  });
}

/**
 * Bounded confidence (Deffuant) on continuous opinions in [−2, 2]: pick i and a random out-neighbour j; if
 * |x_i − x_j| < confidence both move a fraction μ towards each other; otherwise, with probability `rewire`, i drops
 * j for a uniformly random new target (selective exposure). P and H read the rounded opinions' levels as they are.
 */
export function boundedConfidence(
  g0: DirectedGraph,
  x0: readonly number[],
  o: { confidence: number; mu?: number; rewire?: number; epochs: number },
  rng: Rng,
): BaselineRun {
  const mu = o.mu ?? 0.3;
  const rew = o.rewire ?? 0;
  return runEpochs(g0, x0, o.epochs, rng, (i, e, row, x, g) => {
    const j = row[e];
    const d = x[j] - x[i];
    if (Math.abs(d) < o.confidence) {
      x[i] += mu * d;
      x[j] -= mu * d;
      return -1;
    }
    return rew > 0 && rng.next() < rew ? uniformNewTarget(g.n, i, row, rng) : -1;
  });
}
