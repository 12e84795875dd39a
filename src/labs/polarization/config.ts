import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, seedField } from '../../core/config/fields';

export const polarizationLab = defineLab({
  name: 'polarization',
  title: 'Polarization',
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
    topic: z.string().max(64).regex(/^[\w.-]+$/).default('partisan'),
    agentKind: z.enum(['llm', 'coevolvingVoter', 'boundedConfidence']).default('coevolvingVoter'),
    model: modelIdField(),
    voter: group({ rewireToLikeMinded: probability(0.5).describe('φ') }),
    boundedConfidence: group({ threshold: z.number().min(0).max(4).default(1), convergence: probability(0.3) }),
    intervention: group({
      kind: z.enum(['none', 'randomInteractions', 'moderateOpposing', 'noSelectiveExposure', 'noConfirmationBias', 'neutralElite']).default('none'),
      fromEpoch: z.number().int().min(0).max(200).default(35),
    }),
  }),
});
