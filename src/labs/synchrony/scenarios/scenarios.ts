/**
 * The bundled scenarios, 8 per category. The library interleaves the categories (one of each in turn), so the
 * first three (the lab's default when the config names none) are a negotiation, a cooperation and a competition,
 * between strangers, friends and family.
 */
import type { ScenarioDef } from './schema';
import { NEGOTIATION } from './library/negotiation';
import { COOPERATION } from './library/cooperation';
import { COMPETITION } from './library/competition';
import { PERSUASION } from './library/persuasion';
import { SOCIAL_NORMS } from './library/social-norms';

function interleave<T>(lists: readonly T[][]): T[] {
  const out: T[] = [];
  const n = Math.max(...lists.map((l) => l.length));
  for (let i = 0; i < n; i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

export const SCENARIOS: ScenarioDef[] = interleave([NEGOTIATION, COOPERATION, COMPETITION, PERSUASION, SOCIAL_NORMS]);
