/**
 * A run's record of the sampling its models asked for themselves (RunMeta.sampling). A link replays at each model's
 * current generation_config.json, so the record is what says which cut an older run's turns got; a run resumed after
 * a model's file changed records both, each with the episode it began at.
 */
import { z } from 'zod';
import { MAX_BANNED, type ModelSampling, type RunnerModels } from './models';

export interface ModelSamplingRecord extends ModelSampling {
  model: string;
  /** The first episode (0-based) sampled this way, when it is not the run's first: the run was resumed after a change. */
  fromEpisode?: number;
}

/**
 * A stored record as read back (run.json of a bundle, a sweep's stored episode): checked by field; keys beyond these
 * are dropped, a missing top-k reads as 0 (written before the lab read it), a prompt boost or repetition penalty of 1
 * as none, and `fromEpisode` 0 as none.
 */
export const samplingRecordsSchema = z
  .array(
    z.object({
      model: z.string().max(200),
      topP: z.number().gt(0).max(1),
      minP: z.number().min(0).max(1),
      topK: z.number().int().min(0).max(10_000_000).default(0),
      promptBoost: z.number().gt(0).max(100).optional(),
      repetitionPenalty: z.number().gt(0).max(100).optional(),
      banned: z
        .array(z.array(z.number().int().min(0)).min(1).max(MAX_BANNED.tokens))
        .max(MAX_BANNED.sequences)
        .optional(),
      fromEpisode: z
        .number()
        .int()
        .min(0)
        .optional()
        .transform((k) => k || undefined),
    }),
  )
  .max(100)
  .transform((records): ModelSamplingRecord[] =>
    records.map(({ fromEpisode, promptBoost, repetitionPenalty, banned, ...r }) => ({
      ...r,
      ...penalties({ promptBoost, repetitionPenalty, banned }),
      ...(fromEpisode ? { fromEpisode } : {}),
    })),
  );

type Penalties = Pick<ModelSampling, 'promptBoost' | 'repetitionPenalty' | 'banned'>;
/**
 * The prompt boost, repetition penalty and bans as a record holds them: only those that change anything (not 1, not
 * empty), so the records of models without them stay as they were.
 */
const penalties = (p: Penalties): Penalties => ({
  ...(p.promptBoost !== undefined && p.promptBoost !== 1 ? { promptBoost: p.promptBoost } : {}),
  ...(p.repetitionPenalty !== undefined && p.repetitionPenalty !== 1 ? { repetitionPenalty: p.repetitionPenalty } : {}),
  ...(p.banned?.length ? { banned: p.banned } : {}),
});

/** "models' own sampling (used where the settings give none): …" for a run's status line; empty when nothing cuts. */
export function samplingNote(records: readonly ModelSamplingRecord[] | undefined): string {
  const text = describeSampling(records ?? []);
  return text ? `models' own sampling (used where the settings give none): ${text}` : '';
}

/** What each of a run's models asks for now; models whose host does not say are left out. */
export function samplingOf(ids: readonly string[], models: RunnerModels): ModelSamplingRecord[] {
  return [...new Set(ids)].flatMap((id) => {
    const own = models.get(id).sampling;
    return own ? [{ model: id, topP: own.topP, minP: own.minP, topK: own.topK ?? 0, ...penalties(own) }] : [];
  });
}

const cutsOf = (r: ModelSampling) => `${r.topK ?? 0}|${r.topP}|${r.minP}|${r.promptBoost ?? 1}|${r.repetitionPenalty ?? 1}|${JSON.stringify(r.banned ?? [])}`;

/** The sampling each model got last in a record: the entry of the latest episode per model. */
function latest(records: readonly ModelSamplingRecord[]): Map<string, string> {
  const byModel = new Map<string, { from: number; cuts: string }>();
  for (const r of records) {
    const from = r.fromEpisode ?? 0;
    const seen = byModel.get(r.model);
    if (!seen || from >= seen.from) byModel.set(r.model, { from, cuts: cutsOf(r) });
  }
  return new Map([...byModel].map(([m, v]) => [m, v.cuts]));
}

/**
 * The record of a run about to sample episodes from `done` on at `now`: `now` for a fresh run; the record as it was when
 * nothing changed; else the record with `now` added from episode `done`. Entries from episode `done` on describe
 * episodes that were never kept (a resume cut off before its first episode, or a damaged record's episodes run
 * again), so they go first. A run stored before records were kept (none, with episodes done) gets `now` from episode
 * `done` only: what its earlier episodes got is not known.
 */
export function resumedSampling(
  recorded: readonly ModelSamplingRecord[] | undefined,
  now: readonly ModelSamplingRecord[],
  done: number,
): ModelSamplingRecord[] {
  if (done === 0) return [...now];
  const kept = recorded?.filter((r) => (r.fromEpisode ?? 0) < done);
  const before = latest(kept ?? []);
  if (kept && now.every((r) => before.get(r.model) === cutsOf(r))) return kept;
  return [...(kept ?? []), ...now.filter((r) => before.get(r.model) !== cutsOf(r)).map((r) => ({ ...r, fromEpisode: done }))];
}

/**
 * "organism-dialogue at min-p 0.2" for a run's status line. A model that cut nothing throughout is left out; one whose
 * sampling changed is shown at every step, "no cut" included, so that "no cut before" reads apart from "not known".
 */
export function describeSampling(records: readonly ModelSamplingRecord[]): string {
  const changed = new Set(records.filter((r) => r.fromEpisode).map((r) => r.model));
  return records
    .flatMap((r) => {
      // in the order they act on the logits (the bans, which act between the penalties and the cuts, are named last)
      const cuts = [
        r.promptBoost && r.promptBoost !== 1 ? `prompt boost ${r.promptBoost}` : '',
        r.repetitionPenalty && r.repetitionPenalty !== 1 ? `repetition penalty ${r.repetitionPenalty}` : '',
        r.topK ? `top-k ${r.topK}` : '',
        r.topP < 1 ? `top-p ${r.topP}` : '',
        r.minP > 0 ? `min-p ${r.minP}` : '',
      ].filter(Boolean);
      const n = r.banned?.length ?? 0;
      if (!cuts.length && !n && !changed.has(r.model)) return [];
      const from = r.fromEpisode ? ` from episode ${r.fromEpisode + 1}` : '';
      const list = cuts.length > 2 ? `${cuts.slice(0, -1).join(', ')} and ${cuts.at(-1)}` : cuts.join(' and ');
      const bans = n ? `, with ${n} token sequence${n === 1 ? '' : 's'} banned` : '';
      return [`${r.model} at ${cuts.length ? list : 'no cut'}${bans}${from}`];
    })
    .join('; ');
}
