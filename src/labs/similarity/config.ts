import { z } from 'zod';
import { defineLab } from '../../core/config/lab-definition';
import { group, modelIdField, seedField } from '../../core/config/fields';

export const similarityLab = defineLab({
  name: 'similarity',
  title: 'Similarity',
  summary: 'Models whose layers are alike (CKA) cooperate more in games, but produce less novel work together.',
  version: 1,
  migrations: {},
  schema: z.strictObject({
    seed: seedField(),
    models: z.array(modelIdField()).min(1).max(8).default(['tiny-social']),
    probes: group({
      set: z.enum(['builtin-paragraphs', 'builtin-questions', 'custom']).default('builtin-paragraphs'),
      count: z.number().int().min(4).max(2000).default(64).describe('m'),
    }),
    cka: group({ debiased: z.boolean().default(false), permutations: z.number().int().min(0).max(10_000).default(0) }),
    games: z.array(z.enum(['wordGuessing', 'publicGoods', 'splitDollar', 'beautyContest'])).max(4).default(['beautyContest']),
    novelty: z.array(z.enum(['story', 'biography', 'haiku', 'vacation'])).max(4).default([]),
    rounds: z.number().int().min(1).max(26).default(5),
    temperature: z.number().min(0).max(2).default(0.7),
  }),
});
