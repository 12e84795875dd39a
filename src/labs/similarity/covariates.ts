/** The method's covariates that this lab can compute (same tokenizer is not: the registry does not record it). */
export const COVARIATES = ['abilityDiff', 'sizeDiff', 'sameFamily', 'identical', 'outputDiff'] as const;
export type Covariate = (typeof COVARIATES)[number];
