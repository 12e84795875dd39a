import { resultOf } from '../../src/core/runs/results';
import { opinionsResults } from '../../src/labs/opinions/results';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/core/config/validate';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import type { OpinionsConfig } from '../../src/labs/opinions/graph';
import { runHeadless } from '../../src/core/runs/headless';
import { hashSeed } from '../../src/core/rng';
import type { RunnerModels } from '../../src/core/runs/models';
import { textModel } from '../helpers/text-model';
import { communityFromScreening, screeningCandidates, screeningPersonas, screenRows } from '../../src/labs/opinions/screening-runner';
import { opinionsRecord } from '../../src/labs/opinions/records';
import { expectRecordsFit } from '../helpers/records-fit';
import { decodeLink, encodeLinkFragment } from '../../src/core/config/link';

const cfg = (over: Record<string, unknown> = {}): OpinionsConfig => {
  const v = validateConfig(opinionsLab, {
    mode: 'screening',
    seed: 3,
    community: { model: 'fake', questions: ['s01', 's02', 's03', 's04'] },
    screening: { agents: 6, samples: 4, keep: 2 },
    ...over,
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value as OpinionsConfig;
};

/**
 * Votes by question: s01 everyone agrees (0 bits); s02 by persona, each agent sure (all between agents); s03 a fair
 * coin per vote (mostly within agents); s04 agrees except one reply in four, which is junk.
 */
function fake(batches: (number | string)[][] = []): RunnerModels {
  const model = textModel(
    'fake',
    (prompt, seed) => {
      const h = hashSeed(`${prompt}|${seed}`) >>> 0;
      // s02 splits by persona (a hash of the prompt without the seed): each agent answers alike every time.
      let text = 'Agree';
      if (ids(prompt) === 's02' && (hashSeed(prompt) >>> 0) % 2) text = 'Disagree';
      if (ids(prompt) === 's03') text = h % 2 ? 'Agree' : 'Disagree';
      if (ids(prompt) === 's04') text = h % 4 === 0 ? 'Maybe later' : 'Agree';
      return text;
    },
    (seeds) => batches.push([...seeds]),
  );
  return { get: () => model };
}
const STATEMENTS: Record<string, string> = {};
const ids = (prompt: string): string => Object.entries(STATEMENTS).find(([, text]) => prompt.includes(text))?.[0] ?? '';

describe('question screening', () => {
  it('plans one episode per candidate: the community list, or every question of the kind; an unknown id is refused', () => {
    expect(opinionsRunner.plan(cfg()).episodes).toBe(4);
    const all = cfg({ community: { model: 'fake', questionKind: 'objective' } });
    expect(screeningCandidates(all).every((q) => q.kind === 'objective')).toBe(true);
    expect(opinionsRunner.plan(all).episodes).toBe(screeningCandidates(all).length);
    expect(opinionsRunner.plan(cfg({ community: { model: 'fake', questions: ['s01', 'zz9'] } })).unavailable).toMatch(/no question "zz9"/);
  });

  it('samples the same agents on every question, ranks by vote entropy and keeps the top ones', async () => {
    const c = cfg();
    for (const q of screeningCandidates(c)) STATEMENTS[q.id] = q.text;
    const batches: (number | string)[][] = [];
    const bundle = await runHeadless(opinionsLab, opinionsRunner, c, { models: fake(batches) });
    expectRecordsFit(opinionsRecord, bundle.episodes);
    const rows = screenRows(bundle.episodes);
    expect(rows.map((r) => r.question)).toEqual(['s01', 's02', 's03', 's04']);
    const personas = screeningPersonas(c);
    expect(new Set(personas).size).toBe(6);
    for (const r of rows) expect(r.agents.map((a) => a.persona)).toEqual(personas);
    // K votes per agent in one request, with seeds that name the question, agent and vote.
    expect(batches).toHaveLength(4 * 6);
    expect(batches[0]).toEqual([0, 1, 2, 3].map((k) => `3/screening/s01/a0/v${k}`));
    const by = Object.fromEntries(rows.map((r) => [r.question, r]));
    expect(by.s01).toMatchObject({ entropy: 0, share: 1, failed: 0, parsed: 24 });
    expect(by.s03.entropy).toBeGreaterThan(0.8);
    expect(by.s03.within).toBeGreaterThan(by.s03.between);
    expect(by.s04.failed).toBeGreaterThan(0);
    expect(by.s04.parsed + by.s04.failed).toBe(24);
    const result = resultOf(opinionsResults, bundle.results, 'screening')!;
    const ranked = result.ranked.map((r) => r.entropy);
    expect(ranked).toEqual([...ranked].sort((a, b) => b - a));
    expect(result.kept).toEqual(result.ranked.slice(0, 2).map((r) => r.question));
    expect(by.s02.between).toBeCloseTo(by.s02.entropy, 12);
    expect(by.s02.entropy).toBeGreaterThan(0.5);
    expect(new Set(result.kept)).toEqual(new Set(['s02', 's03']));
  });

  it('turns the choice into a community config whose link carries the ranked table', async () => {
    const c = cfg();
    const bundle = await runHeadless(opinionsLab, opinionsRunner, c, { models: fake() });
    const result = resultOf(opinionsResults, bundle.results, 'screening')!;
    const next = communityFromScreening(c, result);
    expect(next.mode).toBe('community');
    expect(next.community.questions).toEqual(result.kept);
    const back = decodeLink(encodeLinkFragment(opinionsLab, next), [opinionsLab]);
    expect(back.ok && (back.value.config as OpinionsConfig).community.screened).toEqual(result.ranked.map((r) => ({ id: r.question, entropy: r.entropy })));
  });
});
