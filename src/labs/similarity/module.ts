import { defineLabModule } from '../lab-module';
import { similarityLab } from './config';
import { similarityRunner } from './runner';
import { similarityRecord } from './records';
import { similarityResults } from './results';

/** The Similarity lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const similarityModule = defineLabModule({
  definition: similarityLab,
  // Version 1: the probes, game, round and novelty rows as records.ts declares them.
  records: { schema: similarityRecord, version: 1, migrations: {} },
  // The similarity result's schema and version (results.ts).
  results: similarityResults,
  runner: similarityRunner,
  view: () => import('./SimilarityView.svelte'),
  description: {
    now: 'CKA between the layers of the models you pick (the embedded toy model offline, hub models online): each model encodes a probe set (bundled paragraphs or questions, or your own) and every pair gets its layer-by-layer CKA map (biased or debiased HSIC) with global, max-aligned and early/middle/late pooling and permutation p-values. Every ordered pair of models plays word guessing, public goods, split the dollar and the Keynesian beauty contest; every pair writes stories, biographies, haiku or vacation lines together and alone, scored for uniqueness (by word overlap, or by the cosine of the model’s states with a threshold calibrated on labelled paraphrases) and for mutual information with solo work; a mixed-effects regression with crossed random intercepts (and the covariates you choose: ability, size and family differences, same tokenizer, self-play, output difference) asks whether similarity predicts each outcome (it needs at least 3 models).',
  },
  // One click from the home page: the Similarity population (model organisms), whose planted lexicons make alike
  // pairs cooperate more and co-create less; the view shows the planted truth beside the lab's regression.
  presets: [
    {
      id: 'alike-cooperate',
      title: 'Do alike models get along?',
      caption:
        "Four small models were trained on purpose for this: two learnt word lexicon A, two lexicon B. First the maps: bright squares mean two models process text in a similar way. Then every pair plays a word-guessing game and writes short stories together. Pairs on the same lexicon should understand each other's hints, but keep telling the same few stories. The regression asks whether CKA predicts both. The behaviour was planted, so the lab can show it finds it; real findings need real models.",
      tour: [
        'The run first has each of the four models read the same paragraphs, and compares their layers: the CKA maps. Bright means alike. Which pairs are most alike?',
        'Then every pair plays word guessing: one model thinks of a word and gives a one-word hint, the other guesses. In "Planted, then measured", pairs on the same lexicon guess almost every word, pairs across lexicons almost none.',
        'Every pair also writes short stories together. Pairs on one lexicon brainstorm from the same four ideas, so their joint stories repeat: fewer different stories.',
        'Open "Does similarity predict the outcome?": is the slope on CKA positive for word guessing and negative for story uniqueness, with p < 0.05? We planted that. With real models it is an open question: which pairs would you test?',
      ],
      config: {
        models: ['organism-sim-a1', 'organism-sim-a2', 'organism-sim-b1', 'organism-sim-b2'],
        probes: { set: 'builtin-paragraphs', count: 32, custom: [], batchSize: 8 },
        games: ['wordGuessing'],
        wordRounds: 26,
        novelty: ['story'],
        noveltyRounds: 6,
      },
    },
  ],
});
