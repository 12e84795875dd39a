/**
 * The pieces of a Synchrony run as files: episodes as JSONL (the bundle's records.jsonl rows), states as one
 * safetensors (the bundle's "ep<k>/<name>" tensors, with the run's metadata), and the analysis as JSON.
 */
import type { Episode } from '../../../core/runs/types';
import { writeSafetensors, type SafeTensor } from '../../../core/safetensors';
import type { SynchronyAnalysis } from '../types';

/** One JSON row per record, each carrying its episode index, in episode order. */
export function episodesJsonl(episodes: Episode[]): string {
  const lines: string[] = [];
  for (const ep of [...episodes].sort((a, b) => a.index - b.index)) for (const row of ep.records) lines.push(JSON.stringify({ episode: ep.index, ...row }));
  return lines.join('\n') + (lines.length ? '\n' : '');
}

export function statesSafetensors(episodes: Episode[], metadata: Record<string, string> = {}): Uint8Array {
  const tensors: Record<string, SafeTensor> = {};
  for (const ep of episodes) for (const [name, t] of Object.entries(ep.tensors)) tensors[`ep${ep.index}/${name}`] = t;
  return writeSafetensors(tensors, { format: 'social-minds-lab/synchrony-states@1', layout: 'ep<k>/statesA|statesB|passiveA|passiveB: F32 [utterances of that role, L+1, H], row 0 = embeddings', ...metadata });
}

/** The analysis as plain JSON (typed arrays would not survive JSON.stringify as lists). */
export function analysisJson(analyses: SynchronyAnalysis[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: 'social-minds-lab/synchrony-analysis@1', ...extra, analyses }, (_k, v) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v), 2);
}
