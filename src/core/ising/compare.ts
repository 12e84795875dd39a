/** Fit a Glauber model and every baseline on training episodes; score them on held-out ones. */
import type { Episode, FieldMode } from './design';
import { fitGlauber, type FitOptions, type GlauberFit } from './fit';
import { fitInteractionFree, fitMajority, fitMeanField, PERSISTENCE } from './baselines';
import { modelFromFit, type DynamicsModel } from './models';
import { scoreOneStep, scoreRollout, type Accuracy } from './scores';

export interface ModelScore {
  name: string;
  model: DynamicsModel;
  oneStep: Accuracy;
  rollout: Accuracy;
  /** Majority Class is reported for raw accuracy only. */
  rawOnly: boolean;
}

export interface Comparison {
  fit: GlauberFit;
  scores: ModelScore[];
}

export function compareModels(train: readonly Episode[], test: readonly Episode[], opts: FitOptions): Comparison {
  const field: FieldMode = opts.field ?? 'features';
  const fit = fitGlauber(train, opts);
  const models: [string, DynamicsModel, boolean][] = [
    [`Glauber (${opts.kind})`, modelFromFit(fit), false],
    ['Persistence', PERSISTENCE, false],
    ['Interaction-Free', fitInteractionFree(train, field, opts), false],
    ['Mean-Field', fitMeanField(train, field, opts), false],
    ['Majority Class', fitMajority(train), true],
  ];
  return {
    fit,
    scores: models.map(([name, model, rawOnly]) => ({ name, model, rawOnly, oneStep: scoreOneStep(model, test), rollout: scoreRollout(model, test) })),
  };
}
