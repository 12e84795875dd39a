import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, seedField } from '../../core/config/fields';

export const opinionsLab = defineLab({
  name: 'opinions',
  title: 'Opinions',
  summary: 'Agents on a signed graph vote and message their neighbours; a three-coupling Glauber law predicts how they change their minds.',
  version: 1,
  migrations: {},
  schema: z.strictObject({
    seed: seedField(),
    mode: z.enum(['simulation', 'community']).default('simulation').describe('Pure kinetic-Ising simulation, or LLM agents'),
    graph: group({
      generator: z.enum(['square', 'triangular', 'random', 'lowRank']).default('square'),
      side: z.number().int().min(2).max(1024).default(64).describe('Lattice side (square and triangular)'),
      agents: z.number().int().min(2).max(4096).default(32).describe('Agents (random and low-rank)'),
      edgeBudget: z.number().int().min(0).max(200_000).default(96),
      friendlyShare: probability(0.5).describe('Share of positive edges (random)'),
      rank: z.number().int().min(1).max(64).default(10),
      frustration: probability(0.1),
    }),
    dynamics: group({
      betaFriendly: z.number().min(-20).max(20).default(1).describe('β⁺'),
      betaUnfriendly: z.number().min(-20).max(20).default(0.3).describe('β⁻'),
      betaUnsigned: z.number().min(-20).max(20).default(0.2).describe('β₀'),
      temperature: z.number().min(0.01).max(100).default(1),
      field: z.enum(['none', 'uniform', 'random']).default('none'),
      fieldStrength: z.number().min(-20).max(20).default(0),
      update: z.enum(['sync', 'async']).default('sync'),
      epsilon: probability(0.5).describe('Update rate ε (async)'),
      steps: z.number().int().min(1).max(100_000).default(200),
      replicas: z.number().int().min(1).max(256).default(4).describe('Independent runs from random starts, one episode each'),
      initialUp: probability(0.5).describe('Chance that a spin starts at +1'),
    }),
    community: group({
      model: modelIdField(),
      rounds: z.number().int().min(1).max(64).default(8).describe('T'),
      votesPerRound: z.number().int().min(1).max(16).default(5).describe('K'),
      questionKind: z.enum(['subjective', 'objective']).default('subjective'),
      questionId: z.string().max(64).regex(/^[\w.-]*$/).default(''),
      temperature: z.number().min(0).max(2).default(0.7),
    }),
  }),
});
