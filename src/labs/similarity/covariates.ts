/**
 * The method's covariates: ability and size differences, same family, same tokenizer (each model's vocabulary,
 * hashed when it was loaded: src/runtime/tokenizer-id.ts), identical models, and the difference in outcome.
 */
export const COVARIATES = ['abilityDiff', 'sizeDiff', 'sameFamily', 'sameTokenizer', 'identical', 'outputDiff'] as const;
/** The covariates that are 0 or 1 (entered as they are; the others are min-max scaled). */
export const BINARY_COVARIATES: ReadonlySet<(typeof COVARIATES)[number]> = new Set(['sameFamily', 'sameTokenizer', 'identical']);
export type Covariate = (typeof COVARIATES)[number];
