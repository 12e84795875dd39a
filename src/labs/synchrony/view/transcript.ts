/**
 * Transcript rows from an episode's stored records (records.ts: one meta row, one row per utterance, judge rows).
 * Records come from storage, where a run of an older version may hold rows of another shape: meta and turn rows are
 * read field by field with fallbacks (so a damaged turn still takes its place in the dialogue), judge rows only when
 * they fit the schema (their scores are shown as they are).
 */
import type { Episode } from '../../../core/runs/types';
import { synchronyRecordsOf, type EpisodeMetaRecord, type JudgeRecord, type Role } from '../records';
import { RELATIONSHIP_LABELS, type RelationshipLevel } from '../../../core/prompts/synchrony';

export interface TranscriptRow {
  turn: number;
  speaker: Role;
  name: string;
  text: string;
  parsed: boolean;
  parseError?: string;
  /** The model's raw reply when it differs from the kept line. */
  raw?: string;
  leaves: boolean;
  newTokens: number;
  ms: number;
}

export interface Transcript {
  index: number;
  meta: EpisodeMetaRecord | null;
  relationship: string;
  rows: TranscriptRow[];
  judges: JudgeRecord[];
  parseFailures: number;
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const role = (v: unknown): Role => (v === 'B' ? 'B' : 'A');

export function relationshipLabel(level: unknown): string {
  return typeof level === 'number' && level in RELATIONSHIP_LABELS ? `${RELATIONSHIP_LABELS[level as RelationshipLevel]} (${level})` : 'unknown';
}

export function metaOf(ep: Episode): EpisodeMetaRecord | null {
  const r = ep.records.find((x) => x && x.kind === 'meta');
  if (!r) return null;
  const names = r.names;
  const nameOf = (k: Role): string => {
    if (typeof names !== 'object' || names === null) return k;
    return str(k === 'A' ? ('A' in names ? names.A : undefined) : 'B' in names ? names.B : undefined, k);
  };
  return {
    kind: 'meta',
    scenarioId: str(r.scenarioId),
    scenarioTitle: str(r.scenarioTitle, str(r.scenarioId, 'untitled scenario')),
    pairing: num(r.pairing),
    seed: num(r.seed),
    first: role(r.first),
    relationship: num(r.relationship, -1),
    modelA: str(r.modelA, '?'),
    modelB: str(r.modelB, '?'),
    pairIndex: num(r.pairIndex),
    group: num(r.group),
    names: { A: nameOf('A'), B: nameOf('B') },
    ...(typeof r.contextFullAt === 'number' ? { contextFullAt: r.contextFullAt } : {}),
  };
}

export function transcriptOf(ep: Episode): Transcript {
  const meta = metaOf(ep);
  const names = meta?.names ?? { A: 'A', B: 'B' };
  const rows: TranscriptRow[] = ep.records
    .filter((r) => r && r.kind === 'turn')
    .map((t) => {
      const speaker = role(t.speaker);
      return {
        turn: num(t.turn),
        speaker,
        name: names[speaker],
        text: str(t.text),
        parsed: t.parsed !== false,
        ...(typeof t.parseError === 'string' ? { parseError: t.parseError } : {}),
        ...(typeof t.raw === 'string' ? { raw: t.raw } : {}),
        leaves: t.leaves === true,
        newTokens: num(t.newTokens),
        ms: num(t.ms),
      };
    })
    .sort((a, b) => a.turn - b.turn);
  const judges = synchronyRecordsOf(ep).filter((r) => r.kind === 'judge');
  return { index: ep.index, meta, relationship: relationshipLabel(meta?.relationship), rows, judges, parseFailures: rows.filter((r) => !r.parsed).length };
}

/** A short label for the episode picker. */
export function episodeLabel(ep: Episode): string {
  const m = metaOf(ep);
  if (!m) return `Episode ${ep.index + 1}`;
  const models = m.modelA === m.modelB ? m.modelA : `${m.modelA} × ${m.modelB}`;
  return `Episode ${ep.index + 1}: ${m.scenarioTitle} · ${m.names.A} & ${m.names.B} · seed ${m.seed} · ${m.first} first · ${models}`;
}
