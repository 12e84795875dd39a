import { describe, expect, it } from 'vitest';
import { similarityLab, type SimilarityConfig } from '../../src/labs/similarity/config';
import { validateConfig } from '../../src/core/config/validate';
import { gameQueue, similarityRunner } from '../../src/labs/similarity/runner';
import { playGame, MOVE_ATTEMPTS, type GameName, type GameRecord, type RoundRecord } from '../../src/labs/similarity/games';
import { similarityRegression, type GameRow } from '../../src/labs/similarity/games-analysis';
import { mixedLM } from '../../src/core/mixedlm';
import { createRng } from '../../src/core/rng';
import { episodeRng } from '../../src/core/runs/runner';
import type { Episode } from '../../src/core/runs/types';
import type { RunnerModel } from '../../src/core/runs/models';
import { fakeGameModel } from '../helpers/fake-game-model';
import { fakeProbeModel } from '../helpers/fake-probe-model';
import type { SimilarityRecord } from '../../src/labs/similarity/records';
import { similarityRecord } from '../../src/labs/similarity/records';
import { expectRecordsFit } from '../helpers/records-fit';
import { REPLY_FORMATS } from '../../src/core/prompts/formats';

function config(over: Record<string, unknown> = {}): SimilarityConfig {
  const r = validateConfig(similarityLab, { seed: 9, ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value as SimilarityConfig;
}

const play = (game: GameName, a: RunnerModel, b: RunnerModel, rounds: number) =>
  playGame({ game, a, b, repeat: 0, rounds, temperature: 0.7, seedKey: 'test', signal: new AbortController().signal, progress: () => {} });

describe('Similarity games: rules and arithmetic', () => {
  it('constrained decoding: every structured move carries its format grammar; free games carry none', async () => {
    const grammars = (model: RunnerModel) => {
      const seen: { prompt: string; grammar?: string }[] = [];
      const generate = model.generate.bind(model);
      model.generate = async (o) => {
        seen.push({ prompt: o.messages![o.messages!.length - 1].content, ...(o.grammar ? { grammar: o.grammar } : {}) });
        return generate(o);
      };
      return seen;
    };
    const base = { repeat: 0, temperature: 0.7, seedKey: 'test', signal: new AbortController().signal, progress: () => {} };
    for (const [game, constrained] of [
      ['wordGuessing', true],
      ['publicGoods', true],
      ['splitDollar', true],
      ['beautyContest', true],
      ['beautyContest', false],
    ] as const) {
      const a = fakeGameModel({ id: 'x', world: 'shared' });
      const seen = grammars(a);
      await playGame({ ...base, game, a, b: a, rounds: 2, constrained });
      const withGrammar = seen.filter((c) => c.grammar);
      if (!constrained) expect(withGrammar).toEqual([]);
      else if (game === 'wordGuessing') {
        // word and guess are constrained to the round's letter, the hint to any word but the secret one
        expect(withGrammar.map((c) => c.grammar)).toContain(REPLY_FORMATS.word.grammar!({ letter: 'A' }));
        expect(withGrammar.length).toBe(seen.length);
      } else {
        const format = { publicGoods: 'contribution', splitDollar: 'demand', beautyContest: 'number' } as const;
        expect(withGrammar.length).toBe(seen.length);
        if (game !== 'publicGoods') expect(new Set(withGrammar.map((c) => c.grammar))).toEqual(new Set([REPLY_FORMATS[format[game]].grammar!()]));
      }
    }
  });

  it('word guessing: a guesser of the same world decodes every hint, another world none', async () => {
    const thinker = fakeGameModel({ id: 'x', world: 'shared' });
    const same = await play('wordGuessing', thinker, fakeGameModel({ id: 'y', world: 'shared' }), 5);
    expect(same.game.scores).toEqual([5, 5]);
    expect(same.rounds.map((r) => r.detail?.letter)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(same.rounds[1].moves.map((m) => m.value)).toEqual(['Bardvark', 'Bardvarkish', 'Bardvark']);
    const other = await play('wordGuessing', thinker, fakeGameModel({ id: 'z', world: 'other' }), 5);
    expect(other.game.scores).toEqual([0, 0]);
  });

  it('public goods: wealth w <- w + 1.3(c_a + c_b)/2 - c, from $100, the final wealth is the score', async () => {
    const r = await play('publicGoods', fakeGameModel({ id: 'x', world: 's', give: 0.5 }), fakeGameModel({ id: 'y', world: 's', give: 0.1 }), 3);
    let [wa, wb] = [100, 100];
    for (let k = 0; k < 3; k++) {
      const [ca, cb] = [Number((0.5 * wa).toFixed(2)), Number((0.1 * wb).toFixed(2))];
      expect(r.rounds[k].moves.map((m) => m.value)).toEqual([ca, cb]);
      [wa, wb] = [wa + (1.3 * (ca + cb)) / 2 - ca, wb + (1.3 * (ca + cb)) / 2 - cb];
    }
    expect(r.game.scores[0]).toBeCloseTo(wa, 9);
    expect(r.game.scores[1]).toBeCloseTo(wb, 9);
    expect(r.game.scores[1]).toBeGreaterThan(r.game.scores[0]); // the free rider ends richer
  });

  it('split the dollar pays each demand only when they fit in $1; the beauty contest scores 100 - |x - (x+y)/3|', async () => {
    const fit = await play('splitDollar', fakeGameModel({ id: 'x', world: 's', demand: 0.4 }), fakeGameModel({ id: 'y', world: 's', demand: 0.6 }), 4);
    expect(fit.game.scores[0]).toBeCloseTo(1.6, 12);
    expect(fit.game.scores[1]).toBeCloseTo(2.4, 12);
    const greedy = await play('splitDollar', fakeGameModel({ id: 'x', world: 's', demand: 0.5 }), fakeGameModel({ id: 'y', world: 's', demand: 0.6 }), 4);
    expect(greedy.game.scores).toEqual([0, 0]);
    const beauty = await play('beautyContest', fakeGameModel({ id: 'x', world: 's', pick: 30 }), fakeGameModel({ id: 'y', world: 's', pick: 60 }), 2);
    expect(beauty.rounds[0].detail?.target).toBe(30);
    expect(beauty.game.scores).toEqual([200, 140]);
  });

  it('retries an unparseable move with new seeds, and forfeits after the last try', async () => {
    const flaky = fakeGameModel({ id: 'x', world: 's', demand: 0.3, garbage: 1 });
    const r = await play('splitDollar', flaky, fakeGameModel({ id: 'y', world: 's', demand: 0.3 }), 1);
    expect(r.rounds[0].moves[0]).toMatchObject({ value: 0.3, forfeit: false });
    expect(r.rounds[0].moves[0].raw).toHaveLength(2);
    const seeds = flaky.calls.map((c) => c.seed);
    expect(new Set(seeds).size).toBe(2);
    const mute = fakeGameModel({ id: 'x', world: 's', demand: 0.3, garbage: 99 });
    const lost = await play('splitDollar', mute, fakeGameModel({ id: 'y', world: 's', demand: 0.9 }), 1);
    expect(lost.rounds[0].moves[0]).toMatchObject({ value: null, forfeit: true });
    expect(lost.rounds[0].moves[0].raw).toHaveLength(MOVE_ATTEMPTS);
    expect(lost.game.scores).toEqual([0, 0.9]); // a forfeit is a 0 demand for the partner, and scores nothing itself
    expect(lost.game.forfeits).toBe(1);
  });
});

describe('Similarity runner with games', () => {
  const models = [
    Object.assign(fakeGameModel({ id: 'org/a', world: 'shared', give: 0.5 }), {
      encode: fakeProbeModel({ id: 'org/a', world: 'w1' }).encode,
      numLayers: 3,
      hiddenSize: 6,
    }),
    Object.assign(fakeGameModel({ id: 'org/b', world: 'shared', give: 0.4 }), {
      encode: fakeProbeModel({ id: 'org/b', world: 'w1' }).encode,
      numLayers: 3,
      hiddenSize: 6,
    }),
    Object.assign(fakeGameModel({ id: 'org/c', world: 'other', give: 0.1 }), {
      encode: fakeProbeModel({ id: 'org/c', world: 'w2' }).encode,
      numLayers: 3,
      hiddenSize: 6,
    }),
  ];
  const get = { get: (id: string) => models.find((m) => m.id === id)! };
  const CUSTOM = Array.from({ length: 12 }, (_, i) => `Probe ${i} about thing ${i * 3}.`);
  const cfg = config({
    models: ['org/a', 'org/b', 'org/c'],
    probes: { set: 'custom', count: 12, custom: CUSTOM },
    games: ['wordGuessing', 'publicGoods'],
    wordRounds: 3,
    rounds: 2,
    repeats: 2,
  });

  async function runAll(c: SimilarityConfig): Promise<Episode<SimilarityRecord>[]> {
    const plan = similarityRunner.plan(c);
    expect(plan.unavailable).toBeUndefined();
    const out: Episode<SimilarityRecord>[] = [];
    for (let index = 0; index < plan.episodes; index++)
      out.push(
        await similarityRunner.runEpisode(c, { index, rng: episodeRng(c.seed, index), signal: new AbortController().signal, progress: () => {}, models: get }),
      );
    return out;
  }

  it('queues every game × ordered pair (self-play included) × repeat after the probe episodes', () => {
    const q = gameQueue(cfg);
    expect(q).toHaveLength(2 * 9 * 2);
    expect(q.slice(0, 4)).toEqual([
      { game: 'wordGuessing', a: 'org/a', b: 'org/a', repeat: 0 },
      { game: 'wordGuessing', a: 'org/a', b: 'org/a', repeat: 1 },
      { game: 'wordGuessing', a: 'org/a', b: 'org/b', repeat: 0 },
      { game: 'wordGuessing', a: 'org/a', b: 'org/b', repeat: 1 },
    ]);
    expect(similarityRunner.plan(cfg).episodes).toBe(3 + 36);
  });

  it('stores each game with its rounds, repeats exactly, and joins the scores with the pair CKA', async () => {
    const eps = await runAll(cfg);
    const again = await runAll(cfg);
    expect(again.slice(3).map((e) => e.records)).toEqual(eps.slice(3).map((e) => e.records)); // probe records hold timings
    const g = eps[3].records[0] as unknown as GameRecord;
    expect(g).toMatchObject({ kind: 'game', game: 'wordGuessing', a: 'org/a', b: 'org/a', repeat: 0, rounds: 3, scores: [3, 3] });
    expect((eps[3].records.slice(1) as unknown as RoundRecord[]).map((r) => r.round)).toEqual([1, 2, 3]);
    const [res] = await similarityRunner.summarize(cfg, eps);
    const a = res.value;
    expect(a.pairs).toHaveLength(6);
    const games = a.games!;
    // word guessing: one row per game (the thinker focal); public goods: one per player
    expect(games.rows.filter((r) => r.game === 'wordGuessing')).toHaveLength(18);
    expect(games.rows.filter((r) => r.game === 'publicGoods')).toHaveLength(36);
    const ab = a.pairs.find((p) => p.a === 'org/a' && p.b === 'org/b')!;
    const row = games.rows.find((r) => r.game === 'publicGoods' && r.focal === 'org/b' && r.partner === 'org/a')!;
    expect(row.sim).toBe(ab.linear.global);
    const wordAC = games.pairs.find((p) => p.game === 'wordGuessing' && p.a === 'org/a' && p.b === 'org/c')!;
    expect(wordAC).toMatchObject({ games: 2, meanA: 0, meanB: 0 });
    expect(games.pairs.find((p) => p.game === 'wordGuessing' && p.a === 'org/a' && p.b === 'org/b')!.meanA).toBe(3);
    expect(games.forfeitRate).toBe(0);
    // the regression is the core mixed model on the rows: z-scored y within game, min-max scaled sim
    const all = games.regressions[0];
    expect(all.game).toBe('all');
    expect(all.rows).toBe(54);
    expect(all.result?.names).toContain('sim');
    expect(games.regressions.map((r) => r.game)).toEqual(['all', 'wordGuessing', 'publicGoods']);
  });

  it('with the GPU engine asked for and no WebGPU (Node), runs CKA on the CPU, says so, and gives the same pairs', async () => {
    const eps = await runAll(cfg);
    const [cpu] = await similarityRunner.summarize(cfg, eps);
    const gpuCfg = { ...cfg, cka: { ...cfg.cka, engine: 'gpu' as const } };
    const [fallback] = await similarityRunner.summarize(gpuCfg, eps);
    expect(cpu.value.ckaEngine).toBe('cpu');
    expect(fallback.value.ckaEngine).toBe('cpu');
    expect(fallback.value.warnings.join(' ')).toMatch(/CKA ran on the CPU \(float64\) instead of the GPU: .*WebGPU/);
    expect(fallback.value.pairs).toEqual(cpu.value.pairs);
    // With no room to keep every model's Gram statistics, each pair builds its own: the same bits.
    const [streamed] = await similarityRunner.summarize(cfg, eps, { memoryBudgetBytes: 0 });
    expect(streamed.value.pairs).toEqual(cpu.value.pairs);
  });

  it('writes records that fit the lab record schema: probes, games and their rounds', async () => {
    expect(expectRecordsFit(similarityRecord, await runAll(cfg))).toEqual(['game', 'probes', 'round']);
  });

  it('the regression matches a direct mixed-model fit of the same data, and says when it cannot be fitted', () => {
    const rows: GameRow[] = [];
    const ids = ['p', 'q', 'r', 's', 't', 'u'];
    const focalEffect = [0.9, -0.6, 0.3, -1.1, 0.5, 0];
    const partnerEffect = [-0.4, 0.8, 0.1, -0.7, 0.2, 0.5];
    const rng = createRng('regression-test');
    for (let rep = 0; rep < 3; rep++)
      ids.forEach((f, i) =>
        ids.forEach((p, j) => {
          const sim = i === j ? 1 : 0.2 + 0.1 * ((i + j) % 5);
          rows.push({
            game: 'splitDollar',
            focal: f,
            partner: p,
            repeat: rep,
            score: focalEffect[i] + partnerEffect[j] + 1.5 * sim + 0.4 * rng.normal(),
            partnerScore: null,
            sim,
            simMaxAligned: null,
            simEarly: null,
          });
        }),
      );
    const r = similarityRegression(rows, 'splitDollar');
    const ys = rows.map((x) => x.score);
    const m = ys.reduce((s, v) => s + v, 0) / ys.length;
    const sd = Math.sqrt(ys.reduce((s, v) => s + (v - m) ** 2, 0) / (ys.length - 1));
    const sims = rows.map((x) => x.sim!);
    const lo = Math.min(...sims);
    const hi = Math.max(...sims);
    const direct = mixedLM({
      y: ys.map((v) => (v - m) / sd),
      fixed: [{ name: 'sim', values: sims.map((v) => (v - lo) / (hi - lo)) }],
      factors: [
        { name: 'focal', labels: rows.map((x) => x.focal) },
        { name: 'partner', labels: rows.map((x) => x.partner) },
      ],
    });
    expect(r.result!.coef).toEqual(direct.coef);
    expect(r.result!.coef[1]).toBeGreaterThan(0); // the planted effect of similarity
    expect(
      similarityRegression(
        rows.filter((x) => ['p', 'q'].includes(x.focal) && ['p', 'q'].includes(x.partner)),
        'all',
      ).note,
    ).toMatch(/at least 3 models/);
  });

  it('adds the covariates the config asks for, min-max scaling the scalar ones, and says what it left out', () => {
    const ids = ['p', 'q', 'r', 's', 't'];
    const size: Record<string, number> = { p: 1e8, q: 3e8, r: 5e8, s: 1e9, t: 2e9 };
    const rng = createRng('covariates');
    const rows: GameRow[] = [];
    for (let rep = 0; rep < 4; rep++)
      ids.forEach((f, i) =>
        ids.forEach((p, j) => {
          const sim = i === j ? 1 : 0.3 + 0.08 * ((2 * i + j) % 6);
          rows.push({
            game: 'beautyContest',
            focal: f,
            partner: p,
            repeat: rep,
            score: 2 * (f === p ? 1 : 0) + 0.5 * sim + 0.3 * i - 0.2 * j + 0.3 * rng.normal(),
            partnerScore: 50 + rep,
            sim,
            simMaxAligned: null,
            simEarly: null,
          });
        }),
      );
    const options = {
      covariates: ['identical', 'sizeDiff', 'sameFamily'] as const,
      abilities: {},
      modelInfo: (id: string) => ({ params: size[id] ?? null, family: 'llama' }),
    };
    const r = similarityRegression(rows, 'beautyContest', { ...options, covariates: [...options.covariates] });
    expect(r.formula).toBe('score_z ~ sim + identical + sizeDiff + (1 | focal) + (1 | partner)');
    expect(r.note).toMatch(/sameFamily is the same in every row/);
    const ys = rows.map((x) => x.score);
    const m = ys.reduce((a, v) => a + v, 0) / ys.length;
    const sd = Math.sqrt(ys.reduce((a, v) => a + (v - m) ** 2, 0) / (ys.length - 1));
    const scale = (xs: number[]) => {
      const lo = Math.min(...xs);
      const hi = Math.max(...xs);
      return xs.map((x) => (x - lo) / (hi - lo));
    };
    const direct = mixedLM({
      y: ys.map((v) => (v - m) / sd),
      fixed: [
        { name: 'sim', values: scale(rows.map((x) => x.sim!)) },
        { name: 'identical', values: rows.map((x) => (x.focal === x.partner ? 1 : 0)) },
        { name: 'sizeDiff', values: scale(rows.map((x) => Math.abs(Math.log10(size[x.focal]) - Math.log10(size[x.partner])))) },
      ],
      factors: [
        { name: 'focal', labels: rows.map((x) => x.focal) },
        { name: 'partner', labels: rows.map((x) => x.partner) },
      ],
    });
    expect(r.result!.coef).toEqual(direct.coef);
    expect(r.result!.coef[r.result!.names.indexOf('identical')]).toBeGreaterThan(0.5); // the planted self-play bonus
    // an ability score missing for one model: its rows leave the fit, and the note says how many
    const ab = similarityRegression(rows, 'beautyContest', {
      covariates: ['abilityDiff'],
      abilities: { p: 60, q: 55, r: 70, s: 40 },
      modelInfo: options.modelInfo,
    });
    expect(ab.rows).toBe(4 * 16);
    expect(ab.note).toMatch(/36 rows left out for unknown covariates/);
    expect(ab.formula).toContain('abilityDiff');
    // same tokenizer: p and q share one, r, s and t another; a binary covariate, entered as 0/1 like sameFamily
    const tokenizers: Record<string, string> = { p: 'v3072-a', q: 'v3072-a', r: 'v49152-b', s: 'v49152-b', t: 'v49152-b' };
    const tk = similarityRegression(rows, 'beautyContest', {
      covariates: ['sameTokenizer'],
      abilities: {},
      modelInfo: (id: string) => ({ params: null, family: null, tokenizer: tokenizers[id] }),
    });
    expect(tk.formula).toBe('score_z ~ sim + sameTokenizer + (1 | focal) + (1 | partner)');
    const sameTok = mixedLM({
      y: ys.map((v) => (v - m) / sd),
      fixed: [
        { name: 'sim', values: scale(rows.map((x) => x.sim!)) },
        { name: 'sameTokenizer', values: rows.map((x) => (tokenizers[x.focal] === tokenizers[x.partner] ? 1 : 0)) },
      ],
      factors: [
        { name: 'focal', labels: rows.map((x) => x.focal) },
        { name: 'partner', labels: rows.map((x) => x.partner) },
      ],
    });
    expect(tk.result!.coef).toEqual(sameTok.coef);
    // a model whose tokenizer is not known (a run stored before tokenizers were kept): its rows leave the fit
    const unknown = similarityRegression(rows, 'beautyContest', {
      covariates: ['sameTokenizer'],
      abilities: {},
      modelInfo: (id: string) => ({ params: null, family: null, tokenizer: id === 's' ? null : tokenizers[id] }),
    });
    expect(unknown.note).toMatch(/rows left out for unknown covariates/);
  });
});

describe('Similarity games: the judge fallback', () => {
  const judge = (answer: string) => {
    const prompts: string[] = [];
    const m = {
      ...fakeGameModel({ id: 'judge', world: 'j' }),
      async generate(o: { messages?: { content: string }[] }) {
        prompts.push(o.messages![0].content);
        return {
          text: answer,
          prefillStates: null,
          shape: [0, 0] as [number, number],
          timing: { promptTokens: 1, newTokens: 1, totalMs: 1 },
          finishReason: 'eos' as const,
        };
      },
    } as unknown as RunnerModel;
    return { m, prompts };
  };
  const playWith = (j: RunnerModel) =>
    playGame({
      game: 'splitDollar',
      a: fakeGameModel({ id: 'x', world: 's', garbage: 99 }),
      b: fakeGameModel({ id: 'y', world: 's', demand: 0.5 }),
      repeat: 0,
      rounds: 1,
      temperature: 0.7,
      judge: j,
      seedKey: 'j',
      signal: new AbortController().signal,
      progress: () => {},
    });

  it('reads the value of a reply no parser accepted, and records that the judge did', async () => {
    const j = judge('0.25');
    const r = await playWith(j.m);
    expect(r.rounds[0].moves[0]).toMatchObject({ value: 0.25, forfeit: false, extractedBy: 'judge', judgeRaw: '0.25' });
    expect(r.rounds[0].moves[1]).toMatchObject({ extractedBy: 'parser' });
    expect(r.game).toMatchObject({ judged: 1, forfeits: 0, scores: [0.25, 0.5] });
    expect(j.prompts).toHaveLength(1);
    expect(j.prompts[0]).toMatch(/<question>Split the dollar[\s\S]*<reply>I would rather talk about the weather/);
    expect(j.prompts[0]).toMatch(/What share of the dollar \(a number from 0 to 1\) did the player give\?/);
  });

  it('still forfeits when the judge cannot read it either, and loads the judge only when games may need it', async () => {
    const r = await playWith(judge('NONE').m);
    expect(r.rounds[0].moves[0]).toMatchObject({ value: null, forfeit: true, judgeRaw: 'NONE' });
    expect(r.rounds[0].moves[0].reason).toMatch(/the judge could not read it either/);
    const base = { models: ['org/a'], probes: { set: 'custom', count: 4, custom: ['a.', 'b.', 'c.', 'd.'] }, judge: { enabled: true, model: 'org/judge' } };
    expect(similarityRunner.plan(config({ ...base, games: ['splitDollar'] })).models).toEqual(['org/a', 'org/judge']);
    expect(similarityRunner.plan(config(base)).models).toEqual(['org/a']);
  });
});
