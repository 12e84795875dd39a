/**
 * The planted truth of the Polarization organism (models/organism-polarization/planted.json, written by its build
 * from organisms/polarization/law.ts): what the Polarization view shows beside what a run measured. Null for any
 * other model.
 */
import plantedJson from '../../../models/organism-polarization/planted.json';
import { findModel } from '../../../models/registry';
import type { AgentLog } from './llm-runner';

export type LinkSides = 'same' | 'neutral' | 'opposite' | 'diverse';
export type InterventionKind = keyof typeof plantedJson.expected;

export interface PlantedPolarization {
  model: string;
  /** Planted chance of keeping a link, by the two agents' sides ("diverse": the agent likes diverse views). */
  keep: Record<LinkSides, number>;
  /** What each intervention should do to P and H, in words. */
  expected: Record<InterventionKind, string>;
  temperature: number;
}

export function plantedPolarization(model: string | undefined, agentKind: string | undefined): PlantedPolarization | null {
  if (!model || agentKind !== 'llm' || findModel(model)?.organism !== 'polarization' || plantedJson.version !== 1) return null;
  const k = plantedJson.polarization.KEEP.default;
  return {
    model,
    keep: { same: k.same, neutral: k.neutral, opposite: k.opposite, diverse: plantedJson.polarization.DIVERSE_KEEP },
    expected: plantedJson.expected,
    temperature: plantedJson.temperature,
  };
}

/** The sides of two stances, as the planted keep-or-drop law reads them. */
export function linkSides(self: number, other: number): Exclude<LinkSides, 'diverse'> {
  if (self === 0 || other === 0) return self === other ? 'same' : 'neutral';
  return Math.sign(self) === Math.sign(other) ? 'same' : 'opposite';
}

export interface KeepShare {
  sides: LinkSides;
  kept: number;
  considered: number;
}

/**
 * The share of links an agent kept, by sides, from a run's agent logs: the agent's stance after its update against
 * the other's at the start of the epoch (what the keep-or-drop prompt shows). Epochs whose intervention rewires
 * links itself (random interactions, moderate opposing) are left out; "likes diverse views" epochs count apart.
 */
export function keepShares(logs: readonly AgentLog[], interventionAt: (epoch: number) => string): KeepShare[] {
  const startOf = new Map<string, number>();
  for (const l of logs) startOf.set(`${l.epoch}/${l.agent}`, l.before);
  const acc = new Map<LinkSides, KeepShare>();
  const count = (sides: LinkSides, kept: boolean) => {
    const a = acc.get(sides) ?? { sides, kept: 0, considered: 0 };
    a.considered++;
    if (kept) a.kept++;
    acc.set(sides, a);
  };
  for (const l of logs) {
    const kind = interventionAt(l.epoch);
    if (kind === 'randomInteractions' || kind === 'moderateOpposing') continue;
    for (const [others, kept] of [
      [l.kept, true],
      [l.dropped, false],
    ] as const) {
      for (const j of others) {
        const other = startOf.get(`${l.epoch}/${j}`);
        if (other === undefined) continue;
        count(kind === 'noSelectiveExposure' ? 'diverse' : linkSides(l.after, other), kept);
      }
    }
  }
  const order: LinkSides[] = ['same', 'neutral', 'opposite', 'diverse'];
  return order.flatMap((s) => (acc.has(s) ? [acc.get(s)!] : []));
}
