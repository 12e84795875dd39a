/**
 * The Polarization organism (models/organism-polarization) through the Polarization lab: its keep-or-drop and
 * stance-update probabilities on held-out prompts against the planted law (fp32), then LLM-agent runs without an
 * intervention and with each of the five, over seeds: P(t) in the lab's own series, with seed-to-seed SE.
 */
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models.ts';
import { measurePolarization } from '../../organisms/polarization/measure.ts';
import { POLARIZATION_SETUP, runInterventions } from '../../organisms/polarization/recovery.ts';
import { signedNumber } from '../../src/components/format.ts';
import type { BenchSuite } from '../run.ts';

const MODEL = POLARIZATION_SETUP.model;

const suite: BenchSuite = {
  title: 'Model organisms: the Polarization organism',
  async run() {
    const lines: string[] = ["### Planted probabilities on held-out prompts (the lab's own topics and reasons)", ''];
    lines.push(
      'Keep-or-drop: P(yes) after the reply has read the two stances aloud, with the planted value in brackets; "read right" is the mean probability that the reply writes the right reading ("Me +2, you -1: opposite sides.").',
      '',
    );
    lines.push(
      '| dtype | keep: same side (planted) | keep: one neutral | keep: opposite | keep: likes diverse views | read right | update TV distance, default / open | outward step, default: planted / measured | open: planted / measured |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const dtype of ['fp32'] as const) {
      const rt = createNodeRuntime();
      await rt.load(MODEL, { device: 'cpu', dtype });
      const m = await measurePolarization(rt, 240, 'bench');
      await rt.dispose();
      const k = (c: string) => {
        const x = m.keep.find((e) => e.condition === c);
        return x ? `${x.measured.toFixed(2)} (${x.planted.toFixed(2)})` : 'n/a';
      };
      const read = m.keep.reduce((a, e) => a + e.reading * e.probes, 0) / m.keep.reduce((a, e) => a + e.probes, 0);
      const u = (mode: string) => m.update.find((e) => e.mode === mode);
      const d = u('default');
      const o = u('open');
      lines.push(
        `| ${dtype} | ${k('same')} | ${k('neutral')} | ${k('opposite')} | ${k('diverse')} | ${read.toFixed(2)} | ${d?.meanTV.toFixed(2)} / ${o?.meanTV.toFixed(2)} | ${d ? `${signedNumber(d.plantedOutward, 2)} / ${signedNumber(d.measuredOutward, 2)}` : ''} | ${o ? `${signedNumber(o.plantedOutward, 2)} / ${signedNumber(o.measuredOutward, 2)}` : ''} |`,
      );
    }
    const rt = createNodeRuntime();
    const info = await rt.load(MODEL, { device: 'cpu', dtype: 'fp32' });
    const models = new RunnerModelSet();
    models.add(asRunnerModel(MODEL, rt, info));
    const s = POLARIZATION_SETUP;
    const t0 = performance.now();
    const rows = await runInterventions(s, models);
    await rt.dispose();
    lines.push('', '### The whole lab: P(t) without and with each intervention', '');
    lines.push(
      `LLM agents on the organism (Node CPU fp32): ${s.agents} agents on a small-world network (degree 4), ${s.epochs} epochs, topic ${s.topic}, interventions from epoch ${s.fromEpoch + 1}, neutral-elite share ${s.eliteShare ?? 0.05}; seeds ${s.seeds.join(', ')}; P is the mean of the last ${s.window} epochs; ± is the standard error over seeds (differences paired by seed). ${((performance.now() - t0) / 1000).toFixed(0)} s in all.`,
      '',
    );
    lines.push(
      '| intervention | P (final) | P − P(none) | in SEs | H (final) | H − H(none) | in SEs | P(t), mean over seeds | unparsed / calls |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    const diff = (d: number | null, e: number | null) => (d === null ? '– | –' : `${signedNumber(d, 3)} ± ${e?.toFixed(3)} | ${e ? (d / e).toFixed(1) : '–'}`);
    for (const r of rows) {
      lines.push(
        `| ${r.intervention} | ${r.P.toFixed(3)} ± ${r.se.toFixed(3)} | ${diff(r.delta, r.deltaSe)} | ${r.H.toFixed(2)} | ${diff(r.deltaH, r.deltaHSe)} | ${r.series.map((p) => p.toFixed(2)).join(' ')} | ${r.failures}/${r.calls} |`,
      );
    }
    lines.push(
      '',
      'The method note (seed 004): random interactions made H fall (0.48 → 0.28) and left P "barely moved"; no confirmation bias gave the largest drop in P (−11.8 %), the neutral elite −8.8 %; moderately opposing interactions are the lab\'s own definition; no selective exposure has no figure there.',
    );
    return lines.join('\n');
  },
};
export default suite;
