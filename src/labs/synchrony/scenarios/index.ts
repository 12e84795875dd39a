/**
 * The Synchrony lab's scenario library: the bundled set, the user's custom scenarios from the config (they override
 * bundled ones with the same id), and the episode the prompt builders take for one scenario × persona pairing.
 */
import type { Persona, RelationshipLevel, SynchronyEpisode } from '../../../core/prompts/synchrony';
import { buildDialogueTurnPrompt } from '../../../core/prompts/synchrony';
import { renderChatML } from '../../../core/prompts/shared';
import { PERSONAS } from './personas';
import { SCENARIOS } from './scenarios';
import { SCENARIO_SET_FORMAT, type PersonaDef, type ScenarioCategory, type ScenarioDef, type ScenarioSet } from './schema';

export * from './schema';

/** The library that ships with the lab (validated by the unit tests, not at load time). */
export const BUNDLED_SCENARIO_SET: ScenarioSet = { personas: PERSONAS, scenarios: SCENARIOS };

interface Index {
  personas: Map<string, PersonaDef>;
  scenarios: Map<string, ScenarioDef>;
}
const indexes = new WeakMap<ScenarioSet, Index>();

function indexOf(set: ScenarioSet): Index {
  let ix = indexes.get(set);
  if (!ix) {
    ix = { personas: new Map(set.personas.map((p) => [p.id, p])), scenarios: new Map(set.scenarios.map((s) => [s.id, s])) };
    indexes.set(set, ix);
  }
  return ix;
}

export function getScenario(set: ScenarioSet, id: string): ScenarioDef | undefined {
  return indexOf(set).scenarios.get(id);
}

export function getPersona(set: ScenarioSet, id: string): PersonaDef | undefined {
  return indexOf(set).personas.get(id);
}

export interface ScenarioSummary {
  id: string;
  title: string;
  category: ScenarioCategory;
  relationship: number;
  pairings: number;
}

/** The set's scenarios in library order, optionally of one category. */
export function listScenarios(set: ScenarioSet = BUNDLED_SCENARIO_SET, category?: ScenarioCategory): ScenarioSummary[] {
  return set.scenarios
    .filter((s) => !category || s.category === category)
    .map((s) => ({ id: s.id, title: s.title, category: s.category, relationship: s.relationship, pairings: s.pairings.length }));
}

/** What the lab runs when `config.scenarios` is empty: the first three of the bundled library. */
export function defaultScenarioIds(): string[] {
  return SCENARIOS.slice(0, 3).map((s) => s.id);
}

/** The persona as the prompt builders take it (without its id). */
export function toPersona(p: PersonaDef): Persona {
  const { id: _id, ...persona } = p;
  return persona;
}

/**
 * The episode for one scenario and one of its pairings: agent 0 gets the pairing's first persona and the first goal.
 * Throws on an unknown scenario, a pairing index out of range or a dangling persona id (a validated set has none).
 */
export function episodeFor(set: ScenarioSet, scenarioId: string, pairingIndex: number): SynchronyEpisode {
  const s = getScenario(set, scenarioId);
  if (!s) throw new Error(`unknown scenario "${scenarioId}"`);
  if (!Number.isInteger(pairingIndex) || pairingIndex < 0 || pairingIndex >= s.pairings.length) {
    throw new RangeError(`scenario "${scenarioId}" has ${s.pairings.length} pairings; there is no pairing ${pairingIndex}`);
  }
  const [a, b] = s.pairings[pairingIndex].map((pid) => {
    const p = getPersona(set, pid);
    if (!p) throw new Error(`scenario "${scenarioId}" names an unknown persona "${pid}"`);
    return toPersona(p);
  });
  const episode: SynchronyEpisode = {
    scenario: s.text,
    relationship: s.relationship as RelationshipLevel,
    agents: [
      { persona: a, goal: s.goals[0] },
      { persona: b, goal: s.goals[1] },
    ],
  };
  if (s.facts?.length) episode.facts = s.facts.map((f) => (f.visibleTo === undefined ? { text: f.text } : { text: f.text, visibleTo: f.visibleTo }));
  return episode;
}

/**
 * `base` with `custom` laid over it: a custom persona or scenario replaces the one with the same id where it stands,
 * new ones follow in their own order. Neither input is changed.
 */
export function mergeScenarioSets(base: ScenarioSet, custom: ScenarioSet | undefined): ScenarioSet {
  if (!custom || (!custom.personas.length && !custom.scenarios.length)) return base;
  const overlay = <T extends { id: string }>(a: readonly T[], b: readonly T[]): T[] => {
    const byId = new Map(b.map((x) => [x.id, x]));
    const out = a.map((x) => byId.get(x.id) ?? x);
    const seen = new Set(a.map((x) => x.id));
    for (const x of b) if (!seen.has(x.id)) out.push(x);
    return out;
  };
  return { personas: overlay(base.personas, custom.personas), scenarios: overlay(base.scenarios, custom.scenarios) };
}

/** The fields of the lab config these helpers read. */
export interface ScenarioConfig {
  scenarios?: readonly string[];
  customScenarios?: ScenarioSet;
}

const merged = new WeakMap<ScenarioSet, ScenarioSet>();

/** The bundled library with the config's custom scenarios (and personas) laid over it. */
export function scenarioSetFor(config: ScenarioConfig): ScenarioSet {
  const custom = config.customScenarios;
  if (!custom) return BUNDLED_SCENARIO_SET;
  let set = merged.get(custom);
  if (!set) {
    set = mergeScenarioSets(BUNDLED_SCENARIO_SET, custom);
    merged.set(custom, set);
  }
  return set;
}

/** The scenario ids a run uses: the config's, or the default three when it names none. */
export function scenarioIdsFor(config: ScenarioConfig): string[] {
  return config.scenarios?.length ? [...config.scenarios] : defaultScenarioIds();
}

/** Ids in `config.scenarios` that neither the library nor the custom scenarios have. */
export function unknownScenarioIds(config: ScenarioConfig): string[] {
  const set = scenarioSetFor(config);
  return scenarioIdsFor(config).filter((id) => !getScenario(set, id));
}

/** A scenario-set file's text (pretty JSON, with the format tag). */
export function exportScenarioSet(set: ScenarioSet): string {
  return JSON.stringify({ format: SCENARIO_SET_FORMAT, personas: set.personas, scenarios: set.scenarios }, null, 2) + '\n';
}

function samePersona(a: PersonaDef, b: PersonaDef): boolean {
  return (Object.keys(a) as (keyof PersonaDef)[]).every((k) => a[k] === b[k]) && Object.keys(a).length === Object.keys(b).length;
}

/**
 * Custom scenarios made self-contained and small: every persona a custom pairing names is included (taken from
 * `source`, which should be the merged set), and a custom persona is kept only when a custom scenario uses it or
 * it differs from the bundled persona it overrides.
 */
export function completeCustomSet(custom: ScenarioSet, source: ScenarioSet = BUNDLED_SCENARIO_SET): ScenarioSet {
  const own = new Map(custom.personas.map((p) => [p.id, p]));
  const used = new Set(custom.scenarios.flatMap((s) => s.pairings.flat()));
  const personas: PersonaDef[] = [];
  for (const p of custom.personas) {
    const bundled = getPersona(BUNDLED_SCENARIO_SET, p.id);
    if (used.has(p.id) || !bundled || !samePersona(p, bundled)) personas.push(p);
  }
  for (const id of used) {
    if (own.has(id)) continue;
    const p = getPersona(source, id);
    if (p) personas.push(p);
  }
  return { personas, scenarios: custom.scenarios };
}

/** Rough token count of a text (≈ 3.5 characters per token for English with a small BPE vocabulary). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** The larger estimated token count of the two agents' first dialogue prompts (chat template included). */
export function episodePromptTokens(ep: SynchronyEpisode): number {
  return Math.max(...([0, 1] as const).map((v) => estimateTokens(renderChatML(buildDialogueTurnPrompt(ep, v, [])))));
}
