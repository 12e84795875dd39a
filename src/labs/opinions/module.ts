import { defineLabModule } from '../lab-module';
import { opinionsLab } from './config';
import { opinionsRunner } from './runner';
import { opinionsRecord } from './records';
import { opinionsResults } from './results';

/** The Opinions lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const opinionsModule = defineLabModule({
  definition: opinionsLab,
  // Version 1: the step, round and agent rows as records.ts declares them.
  records: { schema: opinionsRecord, version: 1, migrations: {} },
  // The magnetisation, community, trajectories and screening results' schemas and version (results.ts).
  results: opinionsResults,
  runner: opinionsRunner,
  view: () => import('./OpinionsView.svelte'),
  description: {
    now: 'The kinetic-Ising simulation runs now, live: edit or generate a signed graph, set the three couplings, fields and temperature, play and step the dynamics, sweep the temperature to find 𝒯_c, and run recorded replicas. In community mode, LLM agents with personas vote K times per round (the K votes share one read of the prompt) and message their friendly and unfriendly neighbours, round by round (every round stored, resumable, with a live graph and an agent inspector). A screening ranks candidate questions by how evenly the agents’ sampled votes split (vote entropy) and starts a community on the ones that divide them most. The Fit panel fits the 1-, 3- and 5-coupling Glauber laws and the ε form to stored or imported runs and compares them with every baseline, with archetypes, regimes and correctness.',
  },
  // One click from the home page: a small community of LLM agents on a signed graph, and the fit of the law.
  presets: [
    {
      id: 'friends-and-rivals',
      title: 'Friends pull, rivals push',
      caption:
        'Each agent votes, then reads what its friends (green links) and rivals (red links) wrote. In the Fit panel, a positive friendly coupling means agents move toward their friends, a negative unfriendly one means they move away from their rivals. The organism model was trained to do exactly that, so the fit should find it.',
      tour: [
        'The run has started: ten AI agents on a small network vote Agree or Disagree on a question, then read messages from their neighbours.',
        'Green links are friends, red links are rivals. Watch the graph: who changes their vote after a round?',
        'When the run ends, the Fit panel fits a simple rule to the votes. Find "friendly" and "unfriendly" in the Coefficients table.',
        'The planted values are shown beside them: +1.0 for friends, −0.5 for rivals. With ten agents the fit is rough; do the signs agree?',
      ],
      config: {
        mode: 'community',
        graph: { generator: 'random', agents: 10, edgeBudget: 20, friendlyShare: 0.6 },
        community: { model: 'organism-opinions', rounds: 4, votesPerRound: 5, questionKind: 'subjective' },
      },
    },
  ],
});
