/**
 * Prints models/organism-opinions/planted.json: the planted truth in the names of `npm run lab -- ising fit --json`
 * (result.full[…].fit.effective: friendly, unfriendly).
 */
import { OPINIONS_LAW, POLITICS_WORDS } from './law';

const planted = {
  version: 1,
  model: 'organism-opinions',
  law: 'round t >= 1: P(s_i(t+1) = +1) = sigmoid(friendly * sum_friendly s_j(t) + unfriendly * sum_unfriendly s_j(t)); round 0: P(s_i(0) = +1) = sigmoid(g_i); s is the majority of K votes sampled at the temperature below',
  opinions: {
    effective: { friendly: OPINIONS_LAW.effective.friendly, unfriendly: OPINIONS_LAW.effective.unfriendly },
    field: {
      rule: 'round 0 only: g_i = gamma * politics_i * lean_q (subjective questions; objective: 0)',
      gamma: OPINIONS_LAW.fieldGamma,
      politicsWords: POLITICS_WORDS.map(([re, v]) => ({ pattern: re.source, politics: v })),
      lean: '+1 when agreeing is the conservative position, -1 the liberal one',
    },
    votesPerRound: OPINIONS_LAW.votesPerRound,
    temperature: OPINIONS_LAW.temperature,
  },
};
console.log(JSON.stringify(planted, null, 2));
