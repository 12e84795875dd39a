import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, runtimeGroup, seedField } from '../../core/config/fields';
import { customScenarioSetSchema, SCENARIO_LIMITS } from './scenarios/schema';

const scenarioId = z
  .string()
  .max(64)
  .regex(/^[\w.-]+$/, 'must be a scenario id');

export const synchronyLab = defineLab({
  name: 'synchrony',
  title: 'Synchrony',
  intro:
    'When two people talk, what one of them is thinking now helps predict what the other will think next. Here two AI chatbots talk, and the lab checks whether the same is true of what goes on inside them.',
  summary: "Agent A's hidden state at turn t predicts agent B's at turn t+1: ridge maps over all layer pairs, summarised as SyncR².",
  version: 2,
  migrations: {
    // v1 had one model pair as agents {a, b}; v2 lists pairs, so that performance can be correlated across them.
    1: ({ agents, ...rest }) => ({ ...rest, ...(agents && typeof agents === 'object' ? { pairs: [agents] } : {}) }),
  },
  schema: z.strictObject({
    seed: seedField(),
    pairs: z
      .array(z.strictObject({ a: modelIdField(), b: modelIdField() }))
      .min(1)
      .max(12)
      // The dialogue organism by default: offline, the lab's first run should show the effect it exists to teach.
      .default([{ a: 'organism-dialogue', b: 'organism-dialogue' }])
      .describe('Model pairs: agent A is played by a, agent B by b (the same model may play both)'),
    runtime: runtimeGroup(),
    scenarios: z.array(scenarioId).max(500).default([]).describe('Scenario ids (empty: the first three of the library)'),
    pairingsPerScenario: z.number().int().min(1).max(20).default(1),
    // Scenarios edited or imported in the scenario editor travel in the link: a self-contained set (the personas its
    // pairings name included), validated like a file and capped in size. Custom ids override bundled ones.
    customScenarios: customScenarioSetSchema
      .optional()
      .meta({ form: false })
      .describe(`Edited or imported scenarios and the personas they use (at most ${SCENARIO_LIMITS.linkBytes} bytes); the scenario editor writes this`),
    episodeSeeds: z.array(z.number().int().min(0)).min(1).max(50).default([0]),
    bothOrders: z.boolean().default(true).describe('Also run B speaking first'),
    maxUtterancesPerAgent: z.number().int().min(1).max(8).default(8),
    temperature: z.number().min(0).max(2).default(0.7),
    maxNewTokens: z.number().int().min(4).max(300).default(48),
    topP: z
      .number()
      .gt(0)
      .max(1)
      .optional()
      .describe("Nucleus sampling mass; empty: the model's own (its generation_config.json top_p, else 1, as transformers' generate() reads it)"),
    minP: z
      .number()
      .min(0)
      .lt(1)
      .optional()
      .describe(
        "Min-p cut: drop tokens less likely than this share of the most likely one; empty: the model's own (its generation_config.json min_p, else 0: no cut)",
      ),
    topK: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe("Top-k cut: keep only the k most likely tokens (0: no cut); empty: the model's own (its generation_config.json top_k, else no cut)"),
    promptBoost: z
      .number()
      .gt(0)
      .max(10)
      .optional()
      .describe(
        "Prompt boost: raise the logits of tokens that occur in the prompt by this factor (1: none); empty: the model's own (its generation_config.json encoder_repetition_penalty, else 1)",
      ),
    repetitionPenalty: z
      .number()
      .gt(0)
      .max(10)
      .optional()
      .describe(
        "Repetition penalty: lower the logits of tokens already in the prompt or the reply by this factor (1: none); empty: the model's own (its generation_config.json repetition_penalty, else 1). The model's other sampling fields are not used",
      ),
    analysis: group({
      alphaMode: z
        .enum(['cv', 'fixed'])
        .default('cv')
        .describe('cv: α by grouped cross-validation per condition and direction (small models need far more than 0.1); fixed: the α below, as in the paper'),
      alpha: z.number().positive().max(1e6).default(0.1).describe('Ridge α when fixed (the paper: 0.1)'),
      alphaGrid: z.array(z.number().positive().max(1e7)).min(1).max(12).default([0.1, 1, 10, 100, 1000, 10000]).describe('Candidates for cv'),
      splitSeeds: z.array(z.number().int().min(0)).min(1).max(20).default([0, 1, 2]),
      testFraction: probability(0.2),
      lags: z.array(z.number().int().min(1).max(15)).min(1).max(8).default([1, 3, 5]),
      engine: z
        .enum(['cpu', 'gpu'])
        .default('cpu')
        .describe(
          'Ridge grids: cpu = float64 on the worker pool; gpu = the target-side products on WebGPU in float32 (within 1e-4), the CPU where there is no GPU',
        ),
    }),
    controls: group({ passiveReader: z.boolean().default(false), byRelationship: z.boolean().default(true) }),
    emotions: group({
      enabled: z
        .boolean()
        .default(false)
        .describe(
          "Each agent also writes how it feels and what it does on a hidden line that its partner never sees; probes then read the partner's feelings and actions from an agent's states",
        ),
      alpha: z.number().positive().max(1e6).default(10).describe('Ridge α of the emotion and action probes'),
    }),
    judge: group({
      enabled: z.boolean().default(false),
      model: modelIdField('organism-dialogue'),
      decoding: z
        .enum(['free', 'constrained'])
        .default('free')
        .describe("The judge's JSON: free text read by the parser, or constrained by the judge-json grammar (every reply parses)"),
    }),
  }),
});
