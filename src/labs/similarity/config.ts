import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, probability, runtimeGroup, seedField } from '../../core/config/fields';
import { COVARIATES } from './covariates';

/** Chat-template tokens in a probe would be read as template structure, not as the probe's text. */
const CHAT_TOKEN_RE = /<\|[^|]*\|>|<\/?s>/i;

/** One probe of the user's own set: plain text, one line. */
const customProbe = z
  .string()
  .trim()
  .min(1, 'a probe may not be empty')
  .max(2000)
  .refine((s) => !/[\r\n]/.test(s), 'a probe is one line (a paragraph without line breaks)')
  .refine((s) => !CHAT_TOKEN_RE.test(s), 'may not hold chat-template tokens such as <|im_end|>');

export const similarityLab = defineLab({
  name: 'similarity',
  title: 'Similarity',
  intro:
    'Some AI models work in similar ways inside, others do not. The lab measures how alike two models are, then lets them play games and write together, to see whether alike models cooperate better but come up with fewer new ideas.',
  summary: 'Models whose layers are alike (CKA) cooperate more in games, but produce less novel work together.',
  version: 1,
  migrations: {},
  schema: z.strictObject({
    seed: seedField(),
    // The Similarity population (model organisms) by default: offline, the lab should show the effect it teaches.
    models: z.array(modelIdField()).min(1).max(8).default(['organism-sim-a1', 'organism-sim-a2', 'organism-sim-b1', 'organism-sim-b2']),
    runtime: runtimeGroup(),
    probes: group({
      set: z.enum(['builtin-paragraphs', 'builtin-questions', 'custom']).default('builtin-paragraphs'),
      count: z.number().int().min(4).max(2000).default(64).describe('m'),
      // edited in the lab's own view (one probe per line): the form's comma-separated lists would split paragraphs
      custom: z.array(customProbe).max(2000).default([]).meta({ form: false }),
      batchSize: z.number().int().min(1).max(64).default(8).describe('Probes encoded per forward pass'),
    }),
    cka: group({
      debiased: z.boolean().default(false),
      permutations: z.number().int().min(0).max(10_000).default(0),
      engine: z
        .enum(['cpu', 'gpu'])
        .default('cpu')
        .describe('Gram products: cpu = float64, exact to 1e-12; gpu = WebGPU float32 (within 1e-5 of cpu), the CPU where there is no GPU'),
    }),
    games: z
      .array(z.enum(['wordGuessing', 'publicGoods', 'splitDollar', 'beautyContest']))
      .max(4)
      .default([])
      .describe('wordGuessing, publicGoods, splitDollar, beautyContest; every ordered pair of models plays each'),
    rounds: z.number().int().min(1).max(26).default(5).describe('Rounds of public goods, split the dollar and the beauty contest'),
    wordRounds: z.number().int().min(1).max(26).default(26).describe('Letters of word guessing (A, B, … in order)'),
    repeats: z.number().int().min(1).max(10).default(1).describe('Games per ordered pair'),
    temperature: z.number().min(0).max(2).default(0.7),
    decoding: z
      .enum(['free', 'constrained'])
      .default('free')
      .describe("Game moves: free text read by the parser (the method), or constrained by each format's grammar"),
    judge: group({
      enabled: z.boolean().default(false).describe("When no try of a game move parses, a judge model reads the value (the method's fallback)"),
      model: modelIdField(),
    }),
    novelty: z
      .array(z.enum(['story', 'biography', 'haiku', 'vacation']))
      .max(4)
      .default([])
      .describe('story, biography, haiku, vacation; every pair of models (each with itself too) writes together and alone'),
    noveltyRounds: z.number().int().min(2).max(10).default(10).describe('Rounds of each novelty task (the method: 10)'),
    uniqueness: group({
      rule: z
        .enum(['unigram', 'embedding'])
        .default('unigram')
        .describe(
          "When two texts count as the same: unigram overlap (half their distinct words shared), or the cosine of the model's states, thresholded on labelled paraphrases",
        ),
      layer: probability(0.5).describe('Embedding rule: the layer whose states are compared, as a share of the depth'),
    }),
    regression: group({
      covariates: z
        .array(z.enum(COVARIATES))
        .max(COVARIATES.length)
        .default([])
        .describe(`Besides sim: ${COVARIATES.join(', ')}`),
      // edited in the lab's view; in the link so that a shared view fits the same model
      abilities: z.record(z.string().max(96), z.number().finite()).default({}).meta({ form: false }),
    }),
  }),
});

export type SimilarityConfig = z.infer<typeof similarityLab.schema>;
