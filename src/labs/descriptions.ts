import type { LabName } from '../core/config/lab-definition';

/** What each lab page offers now, and what it will do once its own work lands; shown on the lab's page. */
export const LAB_PLANS: Record<LabName, { now: string; coming: string[] }> = {
  synchrony: {
    now: 'Two agents (the same or different models; the embedded toy model offline) play scenarios from a library of 40, every layer of both is recorded at every turn, and the A→B and B→A ridge maps and SyncR² ± SE fill in as episodes land, beside the passive-reader, lag and relationship controls. A judge can score each episode on the 7 SOTOPIA dimensions.',
    coming: [
      'Emotion and action decoding from the recorded states (the method note\'s optional extension).',
      'Several compute workers for the ridge maps of large hub models.',
    ],
  },
  similarity: {
    now: 'CKA between the layers of the models you pick (the embedded toy model offline, hub models online): each model encodes a probe set (bundled paragraphs or questions, or your own) and every pair gets its layer-by-layer CKA map (biased or debiased HSIC) with global, max-aligned and early/middle/late pooling and permutation p-values. Every ordered pair of models plays word guessing, public goods, split the dollar and the Keynesian beauty contest; every pair writes stories, biographies, haiku or vacation lines together and alone, scored for uniqueness and for mutual information with solo work; a mixed-effects regression with crossed random intercepts (and the covariates you choose: ability, size and family differences, self-play, output difference) asks whether similarity predicts each outcome (it needs at least 3 models).',
    coming: [
      'An embedding-based equivalence for uniqueness (now: unigram overlap).',
      'The "same tokenizer" covariate (the registry does not record tokenizers yet).',
    ],
  },
  opinions: {
    now: 'The kinetic-Ising simulation runs now, live: edit or generate a signed graph, set the three couplings, fields and temperature, play and step the dynamics, sweep the temperature to find 𝒯_c, and run recorded replicas. In community mode, LLM agents with personas vote K times per round and message their friendly and unfriendly neighbours, round by round (every round stored, resumable, with a live graph and an agent inspector). The Fit panel fits the 1-, 3- and 5-coupling Glauber laws and the ε form to stored or imported runs and compares them with every baseline, with archetypes, regimes and correctness.',
    coming: [
      'Screening of the questions that divide the agents most (highest vote entropy), as the method did.',
      'Batched generation, so that the K votes of an agent cost one call.',
    ],
  },
  polarization: {
    now: 'Networks of LLM agents hold stances on a topic, read their messages, update their stance, keep or drop their links and try to persuade their neighbours, epoch by epoch; the five interventions (random interactions, moderately opposing interactions, no selective exposure, no confirmation bias, a neutral elite signal) act from an epoch you choose; P(t) and H(t) are plotted live and the run keeps an echo-chamber / backfire table. A self-regulated variant checks posts and stance changes for consistency, and the mechanism experiments give a share of the agents a confirmation-bias or selective-exposure trait and the leaders a neutral, moderate, radical or original stance. The classic coevolving-voter and bounded-confidence models run beside them with no language model.',
    coming: [
      'A sweep over the mechanism experiments (trait fractions, elite stances) in one go, and opinion maps over the network.',
    ],
  },
};
