import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, runtimeGroup, seedField, shortText } from '../../core/config/fields';
import { DEFAULT_OPENNESS } from '../../core/prompts/polarization';
import { TOPIC_IDS } from './topics';

export const polarizationLab = defineLab({
  name: 'polarization',
  title: 'Polarization',
  intro:
    'When people only talk with those who agree with them, groups drift apart into echo chambers. Here AI agents choose whom to keep talking to, and you can try fixes that bring them back together.',
  summary: 'Agents rewire their links and form echo chambers; interventions can reduce the polarization.',
  version: 1,
  migrations: {},
  schema: z.strictObject({
    seed: seedField(),
    agents: z.number().int().min(4).max(5000).default(100),
    network: group({
      generator: z.enum(['ring', 'smallWorld', 'random']).default('ring'),
      degree: z.number().int().min(1).max(64).default(4),
      rewireProbability: probability(0.1),
    }),
    epochs: z.number().int().min(1).max(200).default(40),
    topic: z
      .enum(TOPIC_IDS as [string, ...string[]])
      .default('partisan')
      .describe("The proposition the agents hold stances on (the lab's topics)"),
    agentKind: z.enum(['llm', 'coevolvingVoter', 'boundedConfidence']).default('coevolvingVoter'),
    // The default is the Polarization model organism: its planted echo chambers are what the lab should show.
    model: modelIdField('organism-polarization'),
    runtime: runtimeGroup(),
    llm: group({
      initialPostShare: probability(0.1).describe('Share of agents that write an initial post to their out-neighbours'),
      temperature: z.number().min(0).max(2).default(0.7),
      decoding: z
        .enum(['free', 'constrained'])
        .default('free')
        .describe('Stance updates and yes/no answers: free text read by the parser (what the paper did), or constrained by a grammar'),
      openness: shortText(DEFAULT_OPENNESS, 300).describe("The agents' default openness, stated in the keep-or-drop prompt"),
      eliteShare: probability(0.05).describe('Neutral elite signal: share of agents made neutral key opinion leaders'),
      confirmationBiasShare: probability(0).describe('Mechanism experiments: share of agents with a confirmation-bias trait'),
      selectiveExposureShare: probability(0).describe('Mechanism experiments: share of agents with a selective-exposure trait'),
      eliteStance: z
        .enum(['neutral', 'moderate', 'radical', 'original'])
        .default('neutral')
        .describe('Stance of the key opinion leaders (the elite-signal intervention)'),
      selfRegulated: z
        .boolean()
        .default(false)
        .describe('Consistency checks: initial posts regenerated until the agent agrees they fit its stance; stance changes confirmed, with up to 2 retries'),
    }),
    voter: group({ rewireToLikeMinded: probability(0.5).describe('φ') }),
    // Opinions start at the levels −2…2 and the test is strict (|x_i − x_j| < threshold): with 1, no two different
    // agents would ever meet; 1.5 lets neighbouring levels interact.
    boundedConfidence: group({
      threshold: z.number().min(0).max(4).default(1.5).describe('Agents interact when their opinions differ by less than this'),
      convergence: probability(0.3),
    }),
    // Mechanism experiments in one run (LLM agents): each trait at each share, and each elite stance, over seeds;
    // P and H read as the mean of the epochs from readFrom on (the method: 100 agents, epochs 16-20).
    mechanisms: group({
      enabled: z
        .boolean()
        .default(false)
        .describe('Run the mechanism experiments: every trait share and elite stance below, each over the seeds (the intervention is not used)'),
      traits: z
        .array(z.enum(['confirmationBias', 'selectiveExposure']))
        .max(2)
        .default(['confirmationBias', 'selectiveExposure'])
        .describe('Traits given to a share of the agents'),
      traitShares: z.array(z.number().min(0).max(1)).max(8).default([0, 0.25, 0.5, 0.75]).describe('Shares of agents with the trait'),
      eliteStances: z
        .array(z.enum(['original', 'neutral', 'moderate', 'radical']))
        .max(4)
        .default(['original', 'neutral', 'moderate', 'radical'])
        .describe('Stances of the key opinion leaders (llm.eliteShare of the agents), from the first epoch'),
      seeds: z.number().int().min(1).max(20).default(3).describe('Runs per condition (seeds seed, seed + 1, …)'),
      readFrom: z.number().int().min(0).max(200).default(16).describe('P and H are the mean over the epochs from this one to the last'),
    }),
    intervention: group({
      kind: z.enum(['none', 'randomInteractions', 'moderateOpposing', 'noSelectiveExposure', 'noConfirmationBias', 'neutralElite']).default('none'),
      fromEpoch: z.number().int().min(0).max(200).default(35),
    }),
  }),
});
