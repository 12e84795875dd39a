/**
 * The pieces of a Synchrony run as files: episodes as JSONL (the bundle's records.jsonl rows), states as one
 * safetensors (the bundle's "ep<k>/<name>" tensors, with the run's metadata), and the analysis as JSON.
 */
import type { Episode } from '../../../core/runs/types';
import { writeSafetensors, type SafeTensor } from '../../../core/safetensors';
import { buildLagSamples, type EpisodeRecord } from '../../../core/synchrony';
import { STATE_TENSORS, type Role, type SynchronyAnalysis } from '../types';
import { metaOf } from './transcript';
import { typedArraysAsLists } from '../../../core/json';

/** One JSON row per record, each carrying its episode index, in episode order. */
export function episodesJsonl(episodes: Episode[]): string {
  const lines: string[] = [];
  for (const ep of [...episodes].sort((a, b) => a.index - b.index)) for (const row of ep.records) lines.push(JSON.stringify({ episode: ep.index, ...row }));
  return lines.join('\n') + (lines.length ? '\n' : '');
}

export function statesSafetensors(episodes: Episode[], metadata: Record<string, string> = {}): Uint8Array {
  const tensors: Record<string, SafeTensor> = {};
  for (const ep of episodes) for (const [name, t] of Object.entries(ep.tensors)) tensors[`ep${ep.index}/${name}`] = t;
  return writeSafetensors(tensors, {
    format: 'social-minds-lab/synchrony-states@1',
    layout: 'ep<k>/statesA|statesB|passiveA|passiveB: F32 [utterances of that role, L+1, H], row 0 = embeddings',
    ...metadata,
  });
}

/** The analysis as plain JSON (typed arrays would not survive JSON.stringify as lists). */
export function analysisJson(analyses: SynchronyAnalysis[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: 'social-minds-lab/synchrony-analysis@1', ...extra, analyses }, typedArraysAsLists, 2);
}

/**
 * One direction's lag-k samples in the `sync` format of the CLI and of "bring your own data" (docs/formats.md):
 * source [n, L, H] (the speaker's decoder layers at utterance t), target [n, L, H] (the partner at t + k), group
 * [n]. Built like the analysis (analysis.ts): the episodes of one model pair, utterances in record order, each
 * agent's states in speaking order with row 0 (the embeddings) dropped; episodes whose shapes differ from the
 * first are left out. `npm run lab -- sync` on this file gives that direction's SyncR².
 */
export function syncSamplesSafetensors(
  episodes: Episode[],
  opts: { pairIndex?: number; k?: number; from?: Role } = {},
): { bytes: Uint8Array; n: number; episodes: number } {
  const k = opts.k ?? 1;
  const from = opts.from ?? 'A';
  const withMeta = episodes
    .map((ep) => ({ ep, meta: metaOf(ep) }))
    .filter((x): x is { ep: Episode; meta: NonNullable<ReturnType<typeof metaOf>> } => x.meta !== null);
  const pair = opts.pairIndex ?? Math.min(...withMeta.map((x) => x.meta.pairIndex));
  const mine = withMeta.filter((x) => x.meta.pairIndex === pair);
  const shapeOf = (ep: Episode) => {
    const a = ep.tensors[STATE_TENSORS.A];
    const b = ep.tensors[STATE_TENSORS.B];
    return a && b && a.shape.length === 3 && b.shape.length === 3 ? { LA: a.shape[1] - 1, HA: a.shape[2], LB: b.shape[1] - 1, HB: b.shape[2] } : null;
  };
  const dims = mine.map((x) => shapeOf(x.ep)).find((d) => d !== null);
  if (!dims) throw new Error('no episode of this model pair has both agents’ states');
  const records: EpisodeRecord[] = [];
  for (const { ep, meta } of mine) {
    const d = shapeOf(ep);
    if (!d || d.LA !== dims.LA || d.HA !== dims.HA || d.LB !== dims.LB || d.HB !== dims.HB) continue;
    const seen = { A: 0, B: 0 };
    const utterances: EpisodeRecord['utterances'] = [];
    let complete = true;
    for (const r of ep.records) {
      if (r.kind !== 'turn') continue;
      const speaker: Role = r.speaker === 'B' ? 'B' : 'A';
      const t = ep.tensors[STATE_TENSORS[speaker]];
      if (t.shape[0] <= seen[speaker]) {
        complete = false;
        break;
      }
      const [, L1, H] = t.shape;
      const start = seen[speaker]++ * L1 * H + H;
      utterances.push({ speaker, state: Float32Array.from((t.data as Float32Array).subarray(start, start + (L1 - 1) * H)) });
    }
    if (complete) records.push({ group: meta.group, utterances });
  }
  const dir = from === 'A' ? dims : { LA: dims.LB, HA: dims.HB, LB: dims.LA, HB: dims.HA };
  const s = buildLagSamples(records, dir, k, from);
  if (!s.source.n) throw new Error(`no ${from === 'A' ? 'A→B' : 'B→A'} pairs at lag ${k} yet`);
  const bytes = writeSafetensors(
    {
      source: { shape: [s.source.n, s.source.L, s.source.H], data: s.source.data as Float32Array },
      target: { shape: [s.target.n, s.target.L, s.target.H], data: s.target.data as Float32Array },
      group: { shape: [s.source.n], data: s.group },
    },
    { format: 'social-minds-lab/sync-samples@1', direction: from === 'A' ? 'A->B' : 'B->A', lag: String(k), pairIndex: String(pair) },
  );
  return { bytes, n: s.source.n, episodes: records.length };
}
