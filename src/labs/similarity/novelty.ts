import { askParsed } from '../../core/runs/ask';
import { createRng, hashSeed } from '../../core/rng';
import type { RunnerModel } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { ChatMessage, ParseResult } from '../../core/prompts/shared';
import { buildBrainstormPrompt, buildFinalTextPrompt, parseBrainstorm, parseFinalText, type NoveltyTask } from '../../core/prompts/similarity';
import type { MutualInformation, NoveltyRecord, NoveltyRound, Written } from './records';
import { greedyClasses, upperIndex } from '../../core/equivalence';
import { embeddingEquivalence } from './equivalence';

export const NOVELTY_ATTEMPTS = 3;
const MAX_TOKENS = { brainstorm: 60, story: 130, biography: 110, haiku: 40, vacation: 40 } as const;

export type { MutualInformation, NoveltyRecord, NoveltyRound, Written } from './records';

export interface NoveltyPlay {
  task: NoveltyTask;
  /** Embedding equivalence for the uniqueness count: the layer as a share of the depth; absent: unigram overlap. */
  embeddingLayer?: number;
  a: RunnerModel;
  b: RunnerModel;
  repeat: number;
  rounds: number;
  temperature: number;
  seedKey: string;
  /** Aborted to stop the task; checked before every model call. */
  signal: AbortSignal;
  progress(fraction: number, note?: string): void;
}

async function write<T>(
  model: RunnerModel,
  messages: ChatMessage[],
  parse: (raw: string) => ParseResult<T>,
  show: (v: T) => string,
  maxNewTokens: number,
  play: NoveltyPlay,
  key: string,
): Promise<Written> {
  const asked = await askParsed(model, {
    messages,
    parse,
    attempts: NOVELTY_ATTEMPTS,
    maxNewTokens,
    temperature: play.temperature,
    seed: (attempt) => hashSeed(`${play.seedKey}/${key}/${attempt}`),
    signal: play.signal,
  });
  return { raw: asked.raw, text: asked.ok ? show(asked.value) : null };
}

const LN2 = Math.log(2);

/**
 * Bits per token of `text` alone and after `context`, over the same tokens: the first token of `text` has no
 * prediction without a context, so it is left out of both.
 */
export async function conditionalEntropy(model: RunnerModel, text: string, context: string): Promise<{ tokens: number; hY: number; hYgivenS: number }> {
  if (!model.scoreText) throw new Error(`${model.id} cannot score text on this host, so the mutual information cannot be computed.`);
  const alone = await model.scoreText('', text);
  const given = await model.scoreText(context, text);
  const tail = given.logProbs.slice(given.logProbs.length - alone.logProbs.length);
  const n = alone.logProbs.length;
  const bits = (xs: number[]) => (n ? -xs.reduce((s, x) => s + x, 0) / n / LN2 : NaN);
  return { tokens: n, hY: bits(alone.logProbs), hYgivenS: bits(tail) };
}

/** Both brainstorm, both write from the two brainstorms combined, each writes a solo piece from its own; then MI. */
export async function playNovelty(play: NoveltyPlay): Promise<NoveltyRecord> {
  const models = [play.a, play.b] as const;
  const task = play.task;
  const rounds: NoveltyRound[] = [];
  const asIdeas = (ideas: string[]) => ideas.map((i) => `- ${i}`).join('\n');
  for (let r = 0; r < play.rounds; r++) {
    play.progress(r / (play.rounds + 1), `${task}: round ${r + 1} of ${play.rounds}`);
    const ideasOf = (side: 0 | 1) =>
      write(models[side], buildBrainstormPrompt(task), parseBrainstorm, asIdeas, MAX_TOKENS.brainstorm, play, `${r}/brainstorm/${side}`);
    // One side after the other, in the order the seeds were always drawn.
    const brainstorm: [Written, Written] = [await ideasOf(0), await ideasOf(1)];
    const both = brainstorm.map((w) => w.text).filter((t): t is string => t !== null);
    const finals = async (side: 0 | 1): Promise<{ joint: Written; solo: Written }> => {
      const final = (ideas: string[], key: string) =>
        write(
          models[side],
          buildFinalTextPrompt(task, ideas),
          (t) => parseFinalText(t, task),
          (v) => v,
          MAX_TOKENS[task],
          play,
          `${r}/${key}/${side}`,
        );
      const own = brainstorm[side].text;
      return { joint: await final(both, 'joint'), solo: await final(own ? [own] : [], 'solo') };
    };
    const a = await finals(0);
    const b = await finals(1);
    rounds.push({ brainstorm, joint: [a.joint, b.joint], solo: [a.solo, b.solo] });
  }
  play.progress(play.rounds / (play.rounds + 1), `${task}: mutual information`);
  const mi: MutualInformation[] = [];
  for (const side of [0, 1] as const) {
    const solos = rounds.map((r, i) => ({ i, text: r.solo[side].text })).filter((s): s is { i: number; text: string } => s.text !== null);
    const pick = createRng(hashSeed(`${play.seedKey}/mi/${side}`));
    for (let r = 0; r < rounds.length; r++) {
      const y = rounds[r].joint[side].text;
      if (y === null || !solos.length) continue;
      throwIfAborted(play.signal);
      const s = solos[Math.floor(pick.next() * solos.length)];
      const h = await conditionalEntropy(models[side], y, s.text);
      if (h.tokens > 0) mi.push({ side, round: r + 1, soloRound: s.i + 1, ...h, mi: h.hY - h.hYgivenS });
    }
  }
  const record: NoveltyRecord = { kind: 'novelty', task, a: play.a.id, b: play.b.id, repeat: play.repeat, rounds, mi };
  if (play.embeddingLayer === undefined) return record;
  throwIfAborted(play.signal);
  play.progress(play.rounds / (play.rounds + 1), `${task}: text embeddings`);
  return { ...record, embedding: await embeddingEquivalence(models, rounds, play.embeddingLayer) };
}

/**
 * The method's uniqueness: one model's final texts partitioned greedily into classes of equivalent texts; the class
 * count is the novelty. Equivalence here is unigram overlap, not the paper's DeBERTa classifier: two texts are
 * equal when 2 × (shared distinct words) ≥ the larger distinct-word count (the method's rule for short texts, used
 * for all lengths).
 */
export function uniqueness(texts: readonly string[]): { classes: number; classOf: number[] } {
  const bags = texts.map((t) => new Set(t.toLowerCase().match(/[a-z0-9']+/g) ?? []));
  return greedyClasses(bags.length, (rep, i) => equivalent(bags[rep], bags[i]));
}

/** The same classes under the embedding rule: texts i < j are the same when their stored cosine reaches the threshold. */
export function uniquenessByCosine(n: number, triangle: readonly number[], threshold: number): { classes: number; classOf: number[] } {
  return greedyClasses(n, (rep, i) => triangle[upperIndex(n, Math.min(rep, i), Math.max(rep, i))] >= threshold);
}

function equivalent(x: Set<string>, y: Set<string>): boolean {
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return 2 * shared >= Math.max(x.size, y.size);
}
