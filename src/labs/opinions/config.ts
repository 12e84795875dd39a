import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, runtimeGroup, seedField } from '../../core/config/fields';
import { SET_LIMITS, itemId, setsGroup } from './community/schema';
import { CUSTOM_GRAPH_LIMITS, EDGE_CODE_PATTERN, checkEdgeCode } from './edge-code';

export const opinionsLab = defineLab({
  name: 'opinions',
  title: 'Opinions',
  intro:
    'People change their minds because of what friends and rivals tell them. Here AI agents vote on questions and message their neighbours, and the lab tests a simple rule that predicts who changes their vote.',
  summary: 'Agents on a signed graph vote and message their neighbours; a three-coupling Glauber law predicts how they change their minds.',
  version: 1,
  migrations: {},
  schema: z.strictObject({
    seed: seedField(),
    mode: z
      .enum(['simulation', 'community', 'screening'])
      .default('simulation')
      .describe('Pure kinetic-Ising simulation, LLM agents, or a screening of the questions on which LLM agents disagree most'),
    graph: group({
      generator: z.enum(['square', 'triangular', 'random', 'lowRank']).default('square'),
      side: z.number().int().min(2).max(1024).default(64).describe('Lattice side (square and triangular)'),
      agents: z.number().int().min(2).max(4096).default(32).describe('Agents (random and low-rank)'),
      edgeBudget: z.number().int().min(0).max(200_000).default(96),
      friendlyShare: probability(0.5).describe('Share of positive edges (random)'),
      rank: z.number().int().min(1).max(64).default(10),
      frustration: probability(0.1),
    }),
    // A graph drawn in the editor travels in the link as a compact edge list; nodes = 0 means "use the generator".
    custom: z
      .strictObject({
        nodes: z
          .number()
          .int()
          .min(0)
          .max(CUSTOM_GRAPH_LIMITS.nodes)
          .default(0)
          .describe(`Nodes of the graph drawn in the editor (at most ${CUSTOM_GRAPH_LIMITS.nodes}); 0 uses the generator`),
        edges: z
          .string()
          .max(CUSTOM_GRAPH_LIMITS.chars)
          .regex(EDGE_CODE_PATTERN, 'must be edges like "0+1,1-2" (i+j friendly, i-j unfriendly)')
          .default('')
          .describe('Edges "i+j" (friendly) or "i-j" (unfriendly), comma-separated; the editor writes this'),
      })
      .superRefine((c, ctx) => {
        const problem = checkEdgeCode(c.edges, c.nodes);
        if (problem) ctx.addIssue({ code: 'custom', path: ['edges'], message: problem });
      })
      .prefault({}),
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
      nodeFields: z
        .array(z.number().min(-20).max(20))
        .max(CUSTOM_GRAPH_LIMITS.nodes)
        .default([])
        .describe('Per-node fields g_i (e.g. g = wᵀφ from a fit), one per node; when given they replace Field'),
    }),
    live: group({
      stepsPerFrame: z.number().int().min(1).max(1000).default(1).describe('Speed: steps per frame (seed and speed fix the live trajectory)'),
      convictionThreshold: probability(1 / 3).describe('Phase label: indifference while conviction c is below this'),
      consensusThreshold: probability(0.5).describe('Phase label: consensus once |n| exceeds this (else polarization)'),
      backend: z
        .enum(['auto', 'gpu', 'cpu'])
        .default('auto')
        .describe(
          'Where the live simulation runs: gpu = WebGPU checkerboard sweeps (even-sided square lattice); auto = the GPU when the adapter is hardware, else the CPU worker',
        ),
    }),
    sweep: z
      .strictObject({
        points: z.number().int().min(5).max(81).default(41).describe('Temperatures, log-spaced'),
        tMin: z.number().min(0.01).max(100).default(0.05),
        tMax: z.number().min(0.01).max(100).default(20),
        steps: z.number().int().min(10).max(5000).default(500).describe('Synchronous steps per temperature and start'),
        burn: z.number().int().min(0).max(4999).default(200).describe('Steps dropped before χ'),
        starts: z.number().int().min(1).max(16).default(2).describe('Starts s(0), averaged'),
        start: z
          .enum(['ordered', 'random'])
          .default('ordered')
          .describe('ordered: all +1 / all −1 in turn (no slow coarsening below 𝒯_c); random: drawn with the initial-up chance'),
      })
      .superRefine((s, ctx) => {
        if (s.tMin >= s.tMax) ctx.addIssue({ code: 'custom', path: ['tMax'], message: 'must be above tMin' });
        if (s.burn >= s.steps) ctx.addIssue({ code: 'custom', path: ['burn'], message: 'must be below steps' });
      })
      .prefault({}),
    community: group({
      // The default is the Opinions model organism: its planted law is what the lab should find (models/organism-opinions).
      model: modelIdField('organism-opinions'),
      rounds: z.number().int().min(1).max(64).default(8).describe('T'),
      votesPerRound: z.number().int().min(1).max(16).default(5).describe('K'),
      questionKind: z.enum(['subjective', 'objective']).default('subjective').describe('Kind of the default question (when no id is given)'),
      questionId: z
        .string()
        .max(64)
        .regex(/^[\w.-]*$/)
        .default('')
        .describe('The question (e.g. s01, o03); empty: the first of its kind'),
      questions: z.array(itemId()).max(64).default([]).describe('Sweep: question ids, run in turn (replaces the one question)'),
      screened: z
        .array(z.strictObject({ id: itemId(), entropy: z.number().min(0).max(1) }))
        .max(64)
        .default([])
        .describe('The screening that chose the questions: each candidate and its vote entropy (bits), ranked')
        // written by the screening view and shown by the community view; in the link, not in the form
        .meta({ form: false }),
      graphs: z.number().int().min(1).max(32).default(1).describe('Sweep: graphs drawn from the generator (a custom graph is one graph)'),
      trajectories: z.number().int().min(1).max(64).default(1).describe('Trajectories per question and graph'),
      update: z.enum(['sync', 'async']).default('sync').describe('sync: every agent each round; async: each with probability ε'),
      epsilon: probability(0.5).describe('Update probability ε (async)'),
      temperature: z.number().min(0).max(2).default(0.7),
      decoding: z
        .enum(['free', 'constrained'])
        .default('free')
        .describe('Votes: free text read by the parser (what the paper did), or constrained by a grammar to "Agree"/"Disagree" (or "A"/"B")'),
      messageTokens: z.number().int().min(8).max(96).default(40).describe('Longest message, in tokens'),
      messageAttempts: z.number().int().min(1).max(3).default(2).describe('Tries for a message with a stance and a reason'),
      assignment: z.enum(['random', 'manual']).default('random').describe('Personas: seeded random draw per graph, or the list below'),
      personaIds: z.array(itemId()).max(SET_LIMITS.assignment).default([]).describe('Manual: one persona id per node'),
      objectivePersona: z
        .enum(['expert', 'expert+persona'])
        .default('expert')
        .describe("Objective questions: the worked example only (the method), or after the node's persona"),
    }),
    // Screening (mode 'screening'): every agent votes `samples` times on every candidate question (the community's
    // questions, or every question of its kind); the questions are ranked by vote entropy, the top `keep` kept.
    screening: group({
      agents: z.number().int().min(2).max(256).default(32).describe('Agents sampled (personas drawn from the pool)'),
      samples: z.number().int().min(1).max(16).default(8).describe('Votes per agent and question'),
      keep: z.number().int().min(1).max(64).default(8).describe('Questions kept: the highest vote entropy'),
    }),
    sets: setsGroup(),
    runtime: runtimeGroup(),
  }),
});
