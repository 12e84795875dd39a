import type { LabName } from '../core/config/lab-definition';

/** What each lab page offers now, and what it will do once its own work lands; shown on the lab's page. */
export const LAB_PLANS: Record<LabName, { now: string; coming: string[] }> = {
  synchrony: {
    now: 'Set up a run and share it as a link. Running episodes needs the model runtime and the scenario library, which are being built.',
    coming: [
      'Two agents (the same or different models) play a social scenario; every layer of both is recorded at every turn.',
      'A→B and B→A ridge-R² heatmaps over all layer pairs fill in as episodes finish, with SyncR² ± SE.',
      'Controls beside the real condition: a passive reader, lags k = 1, 3, 5, and closeness of the relationship.',
      'A judge scores each episode on the 7 SOTOPIA dimensions; performance is correlated with SyncR² across model pairs.',
    ],
  },
  similarity: {
    now: 'Set up a comparison and share it as a link. Running it needs the model runtime, which is being built.',
    coming: [
      'Linear CKA (biased and debiased) between every pair of layers of two models, with global and max-aligned pooling.',
      'Cooperation games (word guessing, public goods, split the dollar, beauty contest) and novelty tasks between the models.',
      'A mixed-effects regression with crossed random intercepts: does similarity predict cooperation and novelty?',
    ],
  },
  opinions: {
    now: 'The kinetic-Ising simulation runs now, live: edit or generate a signed graph, set the three couplings, fields and temperature, play and step the dynamics, sweep the temperature to find 𝒯_c, and run recorded replicas.',
    coming: [
      'LLM communities that vote and message their friendly and unfriendly neighbours, round by round.',
      'Fits of the 1-, 3- and 5-coupling Glauber laws to those votes, which predict the next round, against every baseline.',
      'Archetypes and regimes of the observed runs against stochastic rollouts of the fitted law.',
    ],
  },
  polarization: {
    now: 'The classic coevolving-voter and bounded-confidence models run now, with no language model: watch P(t) and H(t) epoch by epoch. LLM agents come next.',
    coming: [
      'LLM agents update their stance, rewire their links and persuade each other, epoch by epoch.',
      'Polarization P(t), homophily H(t), echo-chamber and backfire tables.',
      'Interventions applied to a polarized network, compared side by side.',
    ],
  },
};
