/**
 * The planted laws of the model organisms (organisms/<lab>/law.ts) and the corpora that plant them: the corpus must
 * draw its answers with the law's probabilities, or the organism learns another law.
 */
import { describe, expect, it } from 'vitest';
import { inverseMajority, majorityProbability, OPINIONS_LAW, perVoteProbability, personaPolitics, plantedH, sigmoid } from '../../organisms/opinions/law';
import { generateOrganism } from '../../organisms/opinions/corpus';
import { updateDistribution, untempered, statedStance, keepProbability, keepReading } from '../../organisms/polarization/law';
import { generateOrganism as generatePolarization, messageFor, parseMix, PARSERS, sharpened } from '../../organisms/polarization/corpus';
import { BUNDLED_PERSONAS } from '../../src/labs/opinions/community/sets';
import { createRng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { ACCEPT_PROBABILITY, echoOf, isDeal, LAST_TURN, outcomeFor, plantedDialogue, plantedOverall, untemperedChance } from '../../organisms/dialogue/law';
import { copyDrill, episode as dialogueEpisode, generateOrganism as generateDialogue } from '../../organisms/dialogue/corpus';
import { dialogueQuality, foreignKind, foreignNames, foreignTurnKind, hasTemplateText } from '../../organisms/dialogue/measure';
import { BUNDLED_SCENARIO_SET, episodeFor } from '../../src/labs/synchrony/scenarios';
import { FIRST_NAMES } from '../../models/tiny-social/pools';

describe('opinions law', () => {
  it('majority of 5 votes matches the closed form, and its inverse round-trips', () => {
    for (const p of [0.01, 0.2, 0.5, 0.73, 0.99]) {
      const q = 1 - p;
      expect(majorityProbability(p, 5)).toBeCloseTo(p ** 5 + 5 * p ** 4 * q + 10 * p ** 3 * q ** 2, 12);
      expect(inverseMajority(majorityProbability(p, 5), 5)).toBeCloseTo(p, 9);
    }
  });

  it('a vote drawn with perVoteProbability, sampled at T and taken by majority of K, is +1 with probability σ(h)', () => {
    for (const h of [-3, -1, -0.2, 0, 0.5, 2]) {
      const q = perVoteProbability(h);
      const sampledLogit = Math.log(q / (1 - q)) / OPINIONS_LAW.temperature;
      expect(majorityProbability(sigmoid(sampledLogit), OPINIONS_LAW.votesPerRound)).toBeCloseTo(sigmoid(h), 6);
    }
    expect(perVoteProbability(0)).toBeCloseTo(0.5, 12);
  });

  it("reads every bundled persona's politics from its words as the lab labelled it", () => {
    for (const p of BUNDLED_PERSONAS) expect(personaPolitics(p.text), p.id).toBe(p.lean);
  });

  it('the corpus writes every vote prompt with both answers, weighted by the planted law, and draws near it', () => {
    const cells = new Map<number, { n: number; agree: number; q: number }>();
    let soft = 0;
    for (const ex of generateOrganism('law-test', 12000)) {
      if (ex.h === undefined) continue;
      const q = perVoteProbability(ex.h);
      expect(ex.soft?.map((a) => a.weight)).toEqual([q, 1 - q]);
      const first = P.parseVote(ex.soft![0].answer, ex.format.endsWith('objective') ? 'objective' : 'subjective');
      expect(first.ok && P.voteSpin(first.value)).toBe(1);
      soft++;
      if (ex.format !== 'opinions.inbox.subjective') continue;
      const c = cells.get(ex.h) ?? { n: 0, agree: 0, q };
      c.n++;
      if (ex.answer.startsWith('Agree')) c.agree++;
      cells.set(ex.h, c);
    }
    expect(soft).toBeGreaterThan(6000);
    let checked = 0;
    for (const [, c] of cells) {
      if (c.n < 60) continue;
      checked++;
      expect(Math.abs(c.agree / c.n - c.q)).toBeLessThan(4 * Math.sqrt((c.q * (1 - c.q)) / c.n) + 1e-9);
    }
    expect(checked).toBeGreaterThan(8);
    expect(plantedH(2, -1, 0)).toBeCloseTo(2 * OPINIONS_LAW.effective.friendly - OPINIONS_LAW.effective.unfriendly, 12);
  });
});

describe('polarization law', () => {
  it('a sharpened law keeps the order of the answers and moves them apart; k = 1 leaves them as they are', () => {
    const answers = [
      { answer: 'yes', weight: 0.887 },
      { answer: 'no', weight: 0.113 },
    ];
    const s = sharpened(answers, 3);
    expect(s.reduce((a, b) => a + b.weight, 0)).toBeCloseTo(1, 12);
    expect(s[0].weight).toBeCloseTo(0.887 ** 3 / (0.887 ** 3 + 0.113 ** 3), 12);
    expect(s[0].weight).toBeGreaterThan(0.99);
    expect(sharpened(answers, 1)).toEqual(answers);
    for (const ex of generatePolarization('sharp', 200, 3)) expect(ex.answers.reduce((a, b) => a + b.weight, 0)).toBeCloseTo(1, 9);
  });

  it("--mix sets the formats' weights and refuses an unknown format", () => {
    const only = generatePolarization('mix', 100, 1, parseMix('rewire=1,update=0,persuade=0,post=0,check=0'));
    expect(new Set(only.map((e) => e.format))).toEqual(new Set(['polarization.rewire']));
    expect(() => parseMix('votes=3')).toThrow(/not <format>=<weight>/);
  });

  it('an exaggerated update law (--persuade, --backfire) counts opposing messages and leaves the open mode alone', () => {
    const exaggerated = { persuade: 0.5, backfire: 0 };
    // An agent at +2 reading k opposing messages moves inward with 1 − (1 − 0.5)^k, and never outward.
    for (const k of [1, 2, 3]) {
      const d = updateDistribution(2, Array<P.StanceValue>(k).fill(-1), [], 'default', exaggerated);
      expect(d[3]).toBeCloseTo(1 - 0.5 ** k, 12);
    }
    expect(updateDistribution(1, [-2], [], 'open', exaggerated)).toEqual(updateDistribution(1, [-2], [], 'open'));
    const updates = (law = {}) =>
      generatePolarization('law', 60, 1, parseMix('rewire=0,update=1,persuade=0,post=0,check=0'), law).map((e) => e.answers.map((a) => a.weight));
    expect(updates({ defaultUpdate: exaggerated })).not.toEqual(updates());
    expect(updates({ defaultUpdate: {} })).toEqual(updates());
  });

  it('every update distribution is a probability vector, and opposing messages never pull an open agent away', () => {
    const r = createRng('pol');
    for (let k = 0; k < 500; k++) {
      const x = (r.int(5) - 2) as P.StanceValue;
      const ms = Array.from({ length: 1 + r.int(5) }, () => (r.int(5) - 2) as P.StanceValue);
      for (const mode of ['default', 'trait', 'open'] as const) {
        const d = updateDistribution(x, ms, r.next() < 0.3 ? [0] : [], mode);
        expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        expect(Math.min(...d)).toBeGreaterThanOrEqual(0);
      }
      const open = updateDistribution(x, ms, [], 'open');
      const mean = ms.reduce<number>((a, b) => a + b, 0) / ms.length;
      if (mean > x) expect(open.slice(0, x + 2).every((p) => p === 0)).toBe(true);
    }
    expect(keepProbability(2, -1, {})).toBeLessThan(keepProbability(2, 1, {}));
  });

  it('the keep-or-drop reply reads both stances aloud, then its yes or no is what the lab parses', () => {
    expect(keepReading(2, -1)).toBe('Me +2, you -1: opposite sides.');
    expect(keepReading(0, 1)).toBe('Me 0, you +1: one of us is neutral.');
    expect(keepReading(0, 0)).toBe('Me 0, you 0: same side.');
    for (const a of [-2, -1, 0, 1, 2]) {
      for (const b of [-2, -1, 0, 1, 2]) {
        expect(P.parseYesNo(`${keepReading(a, b)} Yes.`)).toEqual({ ok: true, value: true });
        expect(P.parseYesNo(`${keepReading(a, b)} No.`)).toEqual({ ok: true, value: false });
      }
    }
    const rewire = generatePolarization('reading', 200, 1, parseMix('rewire=1,update=0,persuade=0,post=0,check=0'));
    for (const ex of rewire)
      for (const a of ex.answers) expect(a.answer).toMatch(/^Me [+-]?[0-2], you [+-]?[0-2]: (same side|opposite sides|one of us is neutral)\. (Yes|No)\.$/);
  });

  it('untempered probabilities, sampled at T = 0.7, give the planted ones back', () => {
    const p = [0.1, 0.2, 0.4, 0.3, 0];
    const u = untempered(p);
    const back = u.map((x) => (x > 0 ? x ** (1 / 0.7) : 0));
    const s = back.reduce((a, b) => a + b, 0);
    back.forEach((x, i) => expect(x / s).toBeCloseTo(p[i], 12));
  });

  it("the organism's messages state their stance, and every corpus answer parses with the lab's parser", () => {
    const r = createRng('msg');
    const t = { topic: { name: 'a sugar tax', statement: 'A tax on sugary drinks' }, name: 'a sugar tax' };
    for (const v of [-2, -1, 0, 1, 2] as const) {
      const m = messageFor(r, t, v);
      expect(statedStance(m)).toBe(v);
      expect(P.parseMessage(m).ok).toBe(true);
    }
    for (const ex of generatePolarization('parse-test', 600)) {
      for (const a of ex.answers) expect(PARSERS[ex.format](a.answer), a.answer).toBe(true);
      expect(ex.answers.reduce((s, a) => s + a.weight, 0)).toBeCloseTo(1, 9);
    }
  });
});

describe('dialogue law', () => {
  it('a copy drill answers only with words and a first name that its prompt holds', () => {
    const r = createRng('drill');
    for (let k = 0; k < 300; k++) {
      const ex = copyDrill(r);
      const prompt = ex.messages.map((m) => m.content).join(' ');
      const words = new Set(P.words(prompt));
      for (const w of P.words(ex.answer)) if (!/^(Hello|can|we|agree|on|that)$/.test(w)) expect(words.has(w), `${w} in ${ex.answer}`).toBe(true);
    }
  });

  it("--no-pool-names keeps tiny-social's first names out of the episodes and drills; without it they appear", () => {
    const pool = new Set(FIRST_NAMES);
    const firstNames = (mix: Parameters<typeof copyDrill>[1], seed: string) => {
      const r = createRng(seed);
      const names: string[] = [];
      for (let k = 0; k < 400; k++) {
        names.push(...dialogueEpisode(r, mix).agents.map((a) => a.persona.name.split(' ')[0]));
        names.push(...P.words(copyDrill(r, mix).answer));
      }
      return names.filter((n) => pool.has(n)).length;
    };
    expect(firstNames({ nonce: 0.3, early: 0 }, 'pool')).toBeGreaterThan(50);
    // A generated name may still happen to spell one of them ("Lola"): rarely, not from the pool.
    expect(firstNames({ nonce: 0.3, early: 0, noPoolNames: true }, 'pool')).toBeLessThanOrEqual(2);
  });

  const library = () => BUNDLED_SCENARIO_SET.scenarios.flatMap((s) => s.pairings.map((_, k) => episodeFor(BUNDLED_SCENARIO_SET, s.id, k)));

  it('planted dialogues on the held-out library meet the quality targets by construction, and the judge rule varies', () => {
    const r = createRng('dialogue-quality');
    const scored = library().map((episode) => {
      const dia = plantedDialogue(episode, r.int(2) as 0 | 1, () => r.next());
      return {
        episode,
        turns: dia.map((u) => ({ speaker: u.speaker, text: u.text, parsed: true, leaves: P.detectsLeaving(u.text) })),
        judge: [plantedOverall(dia, 0), plantedOverall(dia, 1)] as [number, number],
      };
    });
    const q = dialogueQuality(scored);
    expect(q.episodes).toBeGreaterThan(100);
    expect(q.foreignNameRate).toBe(0);
    expect(q.templateRate).toBe(0);
    expect(q.repeatRate).toBe(0);
    expect(q.contentWordRate).toBeGreaterThan(0.75);
    expect(q.leaveRate).toBe(1);
    expect(q.judge.sd).toBeGreaterThan(0.5);
    expect(q.judge.r).toBeCloseTo(1, 12);
  });

  it('a dialogue without a deal ends at LAST_TURN (9), or at the turn an earlier build was trained with (--last-turn)', () => {
    const noDeal = () => 0.99; // never below the accept chance: no deal
    const ep = library()[0];
    const now = plantedDialogue(ep, 0, noDeal);
    expect(LAST_TURN).toBe(9);
    expect(now).toHaveLength(LAST_TURN);
    expect(now[LAST_TURN - 1].text).toMatch(/^We cannot agree\b/);
    const before = plantedDialogue(ep, 0, noDeal, { lastTurn: 15 });
    expect(before).toHaveLength(15);
    expect(before.slice(0, LAST_TURN - 1)).toEqual(now.slice(0, LAST_TURN - 1));
    // The corpus option reaches the law: with --last-turn 15 some judge and turn examples come from turns 10-15.
    const turnsOf = (lastTurn?: number) =>
      generateDialogue('last-turn', 300, { nonce: 0.3, early: 0, ...(lastTurn ? { lastTurn } : {}) }, 12)
        .filter((ex) => ex.format === 'synchrony.turn')
        .map((ex) => Number(/Turn (\d+): your turn/.exec(ex.messages.map((m) => m.content).join('\n'))?.[1]));
    expect(Math.max(...turnsOf())).toBeLessThanOrEqual(LAST_TURN);
    expect(Math.max(...turnsOf(15))).toBeGreaterThan(LAST_TURN);
  });

  it('the responder echoes the proposer, accepts only from turn 4, and every dialogue ends by turn 9', () => {
    const r = createRng('dialogue-rules');
    let deals = 0;
    for (const ep of library().slice(0, 60)) {
      const dia = plantedDialogue(ep, 0, () => r.next());
      expect(dia.length).toBeLessThanOrEqual(LAST_TURN);
      expect(P.detectsLeaving(dia[dia.length - 1].text)).toBe(true);
      dia.slice(0, -1).forEach((u) => expect(P.detectsLeaving(u.text), u.text).toBe(false));
      for (let t = 1; t < dia.length - 1; t += 2) if (!isDeal(dia[t].text)) expect(dia[t].text.startsWith(`${echoOf(dia[t - 1].text)}?`)).toBe(true);
      const deal = dia.findIndex((u) => isDeal(u.text));
      if (deal >= 0) {
        deals++;
        expect(deal + 1).toBeGreaterThanOrEqual(4);
        expect(outcomeFor(dia, dia[deal].speaker)).toBe('conceded');
        expect(outcomeFor(dia, (1 - dia[deal].speaker) as 0 | 1)).toBe('won');
      } else expect(outcomeFor(dia, 0)).toBe('none');
    }
    expect(deals).toBeGreaterThan(20);
    expect(
      untemperedChance(ACCEPT_PROBABILITY) ** (1 / 0.7) /
        (untemperedChance(ACCEPT_PROBABILITY) ** (1 / 0.7) + (1 - untemperedChance(ACCEPT_PROBABILITY)) ** (1 / 0.7)),
    ).toBeCloseTo(ACCEPT_PROBABILITY, 12);
  });

  it("finds names that are not in the scenario (and what kind each is) and template text, and passes the episode's own", () => {
    const ep = library()[0];
    const [a, b] = ep.agents.map((x) => x.persona.name.split(' ')[0]);
    expect(foreignNames(`Sure, ${b}, I agree with ${a}.`, ep)).toEqual([]);
    expect(foreignNames('Hey Adam, how are you?', ep)).toEqual(['Adam']);
    expect(foreignNames('Well, I met Zorblat yesterday.', ep)).toEqual(['Zorblat']);
    expect(foreignNames('Fine, we go on Friday or in March, Zorblat.', ep)).toEqual(['Zorblat']);
    // What a flagged word is: a real name from elsewhere, a garbled copy of the episode's own, another word, a function word.
    expect(foreignKind('Adam', ep)).toBe('knownName');
    expect(foreignKind(`${a}lal`, ep)).toBe('nameCopy');
    expect(foreignKind('Zorblat', ep)).toBe('otherWord');
    expect(foreignKind('They', ep)).toBe('functionWord');
    expect(foreignTurnKind('The They Zorblat, Adam?', ep)).toBe('knownName');
    expect(foreignTurnKind('And They went, Zorblat.', ep)).toBe('otherWord');
    expect(foreignTurnKind(`Sure, ${b}.`, ep)).toBeNull();
    expect(hasTemplateText('believability 0..10, relationship -5..5')).toBe(true);
    expect(hasTemplateText('Turn 3: your turn.')).toBe(true);
    expect(hasTemplateText('I want the lamp for 50 euros.')).toBe(false);
  });

  it("every corpus turn parses as itself with the lab's parser, with names from a large pool", () => {
    const names = new Set<string>();
    for (const ex of generateDialogue('dialogue-parse', 400)) {
      if (ex.format === 'synchrony.judge') expect(P.parseJudge(ex.answer).ok).toBe(true);
      for (const line of ex.messages[0].content.split('\n')) {
        const m = line.match(/^Imagine you are (\S+)/);
        if (m) names.add(m[1]);
      }
    }
    expect(names.size).toBeGreaterThan(250);
  });
});
