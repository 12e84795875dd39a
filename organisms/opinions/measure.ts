/**
 * Measures the Opinions organism's planted law straight from its output probabilities, on held-out prompts: the
 * lab's bundled personas and statements (never in the training corpus) with inboxes of the organism's own style.
 *
 * For each prompt, the model's two-way logit ℓ = log p("Agree") − log p("Disagree") gives the chance that the
 * majority of K votes sampled at temperature T is +1, and so an implied field h_model = logit(that chance). A
 * least-squares fit of h_model on [1, friendly net, unfriendly net, field] recovers the planted weights (the field's weight should be 0 at t ≥ 1).
 */
import { createRng } from '../../src/core/rng';
import { ols } from '../../src/core/stats';
import * as P from '../../src/core/prompts';
import { BUNDLED_PERSONAS, BUNDLED_STATEMENTS } from '../../src/labs/opinions/community/sets';
import { INBOX_MAX_CHARS } from '../../src/core/prompts/opinions';
import { majorityProbability, OPINIONS_LAW, plantedField, plantedH, sigmoid } from './law';
import { stanceMessage } from './corpus';

/** What the measurement needs of a model: the log-probability of a continuation after a context. */
export interface Scorer {
  scoreText(context: string, text: string): Promise<{ total: number }>;
}

export interface LawProbe {
  persona: string;
  statement: string;
  friendlyNet: number;
  unfriendlyNet: number;
  field: number;
  plantedH: number;
  modelH: number;
}

export interface LawMeasurement {
  probes: LawProbe[];
  /** Least-squares weights of h_model on the three planted covariates (and an intercept). */
  recovered: { friendly: number; unfriendly: number; field: number; intercept: number };
  planted: { friendly: number; unfriendly: number; field: number };
  /** Root-mean-square of h_model − planted h. */
  rmse: number;
}

const logit = (p: number): number => Math.log(p / (1 - p));

export interface LawPrompt {
  persona: string;
  statement: string;
  friendlyNet: number;
  unfriendlyNet: number;
  field: number;
  /** The rendered ChatML prompt, ending with the assistant's turn. */
  context: string;
}

/** Held-out inbox-vote prompts: bundled personas × bundled statements, inboxes of 0–6 messages of the organism's style. */
export function lawPrompts(n: number, seed = 'measure'): LawPrompt[] {
  const r = createRng(seed);
  const personas = BUNDLED_PERSONAS.filter((p) => typeof p.lean === 'number');
  const out: LawPrompt[] = [];
  while (out.length < n) {
    const persona = personas[r.int(personas.length)];
    const st = BUNDLED_STATEMENTS[r.int(BUNDLED_STATEMENTS.length)];
    const lean = st.lean === 'right' ? 1 : -1;
    const it = { persona: persona.text, q: { kind: 'subjective' as const, statement: st.text }, lean, field: plantedField(persona.lean!, lean) };
    const inbox = () => {
      const size = r.int(7);
      const share = r.next();
      let net = 0;
      const texts: string[] = [];
      for (let i = 0; i < size; i++) {
        const plus = r.next() < share;
        net += plus ? 1 : -1;
        texts.push(stanceMessage(r, it, plus ? 'Agree' : 'Disagree'));
      }
      return { texts, net };
    };
    const f = inbox();
    const u = inbox();
    if (P.bulletList(f.texts).length > INBOX_MAX_CHARS || P.bulletList(u.texts).length > INBOX_MAX_CHARS) continue;
    const context = P.renderChatML(P.buildInboxVotePrompt(it.persona, it.q, f.texts, u.texts), true);
    out.push({ persona: persona.id, statement: st.id, friendlyNet: f.net, unfriendlyNet: u.net, field: it.field, context });
  }
  return out;
}

export async function measureLaw(model: Scorer, n: number, seed = 'measure'): Promise<LawMeasurement> {
  const K = OPINIONS_LAW.votesPerRound;
  const T = OPINIONS_LAW.temperature;
  const probes: LawProbe[] = [];
  for (const p of lawPrompts(n, seed)) {
    const a = (await model.scoreText(p.context, 'Agree')).total;
    const d = (await model.scoreText(p.context, 'Disagree')).total;
    const pMajority = Math.min(1 - 1e-9, Math.max(1e-9, majorityProbability(sigmoid((a - d) / T), K)));
    probes.push({
      persona: p.persona,
      statement: p.statement,
      friendlyNet: p.friendlyNet,
      unfriendlyNet: p.unfriendlyNet,
      field: p.field,
      plantedH: plantedH(p.friendlyNet, p.unfriendlyNet, 0),
      modelH: logit(pMajority),
    });
  }
  // Implied h saturates where the majority is certain; clip at |h| = 6 so a few saturated probes do not dominate.
  const y = probes.map((p) => Math.max(-6, Math.min(6, p.modelH)));
  const w = ols(y, [probes.map((p) => p.friendlyNet), probes.map((p) => p.unfriendlyNet), probes.map((p) => p.field)]).coef;
  const rmse = Math.sqrt(probes.reduce((s, p, i) => s + (y[i] - Math.max(-6, Math.min(6, p.plantedH))) ** 2, 0) / probes.length);
  return {
    probes,
    recovered: { intercept: w[0], friendly: w[1], unfriendly: w[2], field: w[3] },
    planted: { friendly: OPINIONS_LAW.effective.friendly, unfriendly: OPINIONS_LAW.effective.unfriendly, field: 0 },
    rmse,
  };
}
