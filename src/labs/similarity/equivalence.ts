/**
 * The embedding equivalence of the novelty tasks' uniqueness (config `uniqueness.rule: 'embedding'`): each side's
 * final texts are encoded by its own model, compared by the cosine of their states at one layer, and two texts count
 * as the same when the cosine reaches a threshold calibrated for that model on the labelled pairs of
 * paraphrase-set.ts. The cosines and the calibration are stored in the novelty record, so the summary (in the compute
 * worker, with no model) applies them and a reader can see what was decided.
 */
import type { RunnerModel } from '../../core/runs/models';
import { calibrateThreshold, cosineTriangle, type Calibration } from '../../core/equivalence';
import { PARAPHRASE_SET } from './paraphrase-set';
import type { NoveltyRecord } from './records';

/** A decoder layer index from a share of the depth (0: the embeddings, 1: the last layer). */
export const layerOf = (model: Pick<RunnerModel, 'numLayers'>, share: number): number => Math.round(share * model.numLayers);

/** Each text's state at `layer` (the last token's, as the lab's other probes read them). */
export async function embed(model: RunnerModel, texts: readonly string[], layer: number): Promise<Float32Array[]> {
  if (!texts.length) return [];
  const enc = await model.encode([...texts], { chatTemplate: false });
  const [, L1, H] = enc.shape;
  return texts.map((_, i) => enc.data.slice((i * L1 + layer) * H, (i * L1 + layer + 1) * H));
}

// One calibration per model, layer and host (the same model gives the same states): the labelled set is encoded
// once per worker, not once per episode.
const calibrations = new Map<string, Promise<Calibration>>();

export function calibrate(model: RunnerModel, layer: number): Promise<Calibration> {
  const key = `${model.id}|${model.backend}|${model.dtype}|${layer}`;
  let c = calibrations.get(key);
  if (!c) {
    c = (async () => {
      const vectors = await embed(
        model,
        PARAPHRASE_SET.flatMap((p) => [p.a, p.b]),
        layer,
      );
      const scores = PARAPHRASE_SET.map((_, k) => cosineTriangle([vectors[2 * k], vectors[2 * k + 1]])[0]);
      return calibrateThreshold(
        scores,
        PARAPHRASE_SET.map((p) => p.same),
      );
    })();
    calibrations.set(key, c);
    c.catch(() => calibrations.delete(key));
  }
  return c;
}

/** The record's `embedding` part: per side, the cosines of its joint and of its solo texts, and its calibration. */
export async function embeddingEquivalence(
  models: readonly [RunnerModel, RunnerModel],
  rounds: NoveltyRecord['rounds'],
  share: number,
): Promise<NonNullable<NoveltyRecord['embedding']>> {
  const sides = [];
  for (const side of [0, 1] as const) {
    const model = models[side];
    const l = layerOf(model, share);
    const texts = (which: 'joint' | 'solo') => rounds.map((r) => r[which][side].text).filter((t): t is string => t !== null);
    const cal = await calibrate(model, l);
    sides.push({
      model: model.id,
      layer: l,
      threshold: cal.threshold,
      balancedAccuracy: cal.balancedAccuracy,
      joint: cosineTriangle(await embed(model, texts('joint'), l)),
      solo: cosineTriangle(await embed(model, texts('solo'), l)),
    });
  }
  return { share, sides };
}
