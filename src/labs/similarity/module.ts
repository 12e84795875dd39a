import { defineLabModule } from '../lab-module';
import { similarityLab } from './config';
import { similarityRunner } from './runner';

/** The Similarity lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const similarityModule = defineLabModule({
  definition: similarityLab,
  runner: similarityRunner,
  view: () => import('./SimilarityView.svelte'),
  description: {
    now: 'CKA between the layers of the models you pick (the embedded toy model offline, hub models online): each model encodes a probe set (bundled paragraphs or questions, or your own) and every pair gets its layer-by-layer CKA map (biased or debiased HSIC) with global, max-aligned and early/middle/late pooling and permutation p-values. Every ordered pair of models plays word guessing, public goods, split the dollar and the Keynesian beauty contest; every pair writes stories, biographies, haiku or vacation lines together and alone, scored for uniqueness and for mutual information with solo work; a mixed-effects regression with crossed random intercepts (and the covariates you choose: ability, size and family differences, self-play, output difference) asks whether similarity predicts each outcome (it needs at least 3 models).',
    coming: [
      'An embedding-based equivalence for uniqueness (now: unigram overlap).',
      'The "same tokenizer" covariate (the registry does not record tokenizers yet).',
    ],
  },
  // One click from the home page: several models, their CKA maps, games and a novelty task, and the regression.
  presets: [
    {
      id: 'alike-cooperate',
      title: 'Do alike models get along?',
      caption:
        'First the maps: bright squares mean two models process text in a similar way. Then the games and the shared stories: the regression asks whether the more alike pairs cooperate more and write less novel work together. The embedded models are close relatives of one another, so the differences are small.',
      tour: [
        'The run first asks each of the three models to read the same questions, and compares their layers: the CKA maps. Bright means alike.',
        'Then every pair plays split the dollar and public goods, and writes vacation lines together and alone.',
        'Open "Does similarity predict the outcome?": a positive coefficient means more alike pairs scored higher. Is it significant (p < 0.05)?',
        'These three models are close relatives, so the answer here is weak. Ask: which pairs would you pick to test the idea properly?',
      ],
      config: {
        models: ['tiny-social', 'organism-opinions', 'organism-polarization'],
        probes: { set: 'builtin-questions', count: 16, custom: [], batchSize: 8 },
        games: ['splitDollar', 'publicGoods'],
        rounds: 2,
        // Vacation lines: every embedded model parses them (93-100 %); organism-polarization writes a haiku 23 % of the time.
        novelty: ['vacation'],
        noveltyRounds: 2,
      },
    },
  ],
});
