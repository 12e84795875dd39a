import { defineLabModule } from '../lab-module';
import { polarizationLab } from './config';
import { polarizationRunner } from './runner';
import { polarizationRecord } from './records';
import { polarizationResults } from './results';

/** The Polarization lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const polarizationModule = defineLabModule({
  definition: polarizationLab,
  // Version 1: the epoch, agent, interactions and state rows as records.ts declares them.
  records: { schema: polarizationRecord, version: 1, migrations: {} },
  // The polarization and mechanisms results' schemas and version (results.ts).
  results: polarizationResults,
  runner: polarizationRunner,
  view: () => import('./PolarizationView.svelte'),
  description: {
    now: 'Networks of LLM agents hold stances on a topic, read their messages, update their stance, keep or drop their links and try to persuade their neighbours, epoch by epoch; the five interventions (random interactions, moderately opposing interactions, no selective exposure, no confirmation bias, a neutral elite signal) act from an epoch you choose; P(t) and H(t) are plotted live, the run keeps an echo-chamber / backfire table, and a finished run shows its opinions over the network, their distribution and link-level homophily at any epoch. A self-regulated variant checks posts and stance changes for consistency, and the mechanism experiments give a share of the agents a confirmation-bias or selective-exposure trait and the leaders a neutral, moderate, radical or original stance, one setting at a time or the whole grid over seeds in one run, with P and H read at the late epochs ± SE. The classic coevolving-voter and bounded-confidence models run beside them with no language model.',
  },
  // One click from the home page: LLM agents form echo chambers, then an intervention from the middle of the run.
  presets: [
    {
      id: 'echo-chambers',
      title: 'Echo chambers, and a way out',
      caption:
        'H measures how much agents talk only with their own side. In the first epochs the agents drop links to people who disagree, so H climbs: an echo chamber forms. From epoch 4 on, each agent is linked to moderates of the other side instead (the "moderately opposing" intervention) and H drops. P, how far apart the opinions are, keeps rising: messages from the other side backfire. Ten agents make a noisy run: try another seed.',
      tour: [
        'The run has started: ten AI agents hold opinions from −2 to +2 and, each epoch, read messages, update their opinion and decide whom to keep talking to.',
        'Watch H in the results table: it is the share of links between people on the same side. It climbs in the first epochs.',
        'From epoch 4 the intervention links agents to moderates of the other side. Look at H again, and at P, how spread out the opinions are.',
        'The green panel shows the rule the model was trained with, and how often this run kept links to each side. Try another seed, or another intervention.',
      ],
      config: {
        agents: 10,
        epochs: 6,
        agentKind: 'llm',
        model: 'organism-polarization',
        network: { generator: 'ring', degree: 4, rewireProbability: 0.1 },
        // Half the agents post first, so that every seed has messages to react to (with 1 in 10, ten agents often
        // start with none, and nothing moves).
        llm: { initialPostShare: 0.5 },
        intervention: { kind: 'moderateOpposing', fromEpoch: 3 },
      },
    },
  ],
});
