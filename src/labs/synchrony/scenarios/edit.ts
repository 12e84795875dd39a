/**
 * The scenario editor's operations on the config's custom scenarios, kept pure so they are tested without a DOM.
 * Every result is validated as a link would be (validateScenarioSet with the link cap); an empty custom set is
 * `undefined`, so the config (and the link) then carries nothing.
 */
import type { FieldError, Validated } from '../../../core/config/errors';
import { completeCustomSet, getScenario, mergeScenarioSets } from './index';
import { validateScenarioSet, type PersonaDef, type ScenarioDef, type ScenarioSet } from './schema';

export type Custom = ScenarioSet | undefined;

const EMPTY: ScenarioSet = { personas: [], scenarios: [] };

/** `base`, or `base-2`, `base-3`… whichever is not taken. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const stem = base.replace(/-\d+$/, '').slice(0, 56) || 'item';
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${stem}-${i}`)) return `${stem}-${i}`;
}

function finish(candidate: ScenarioSet, rename?: { prefix: string; as: string }): Validated<Custom> {
  const r = validateScenarioSet(JSON.parse(JSON.stringify(candidate)), { forLink: true });
  if (!r.ok) {
    const errors: FieldError[] = r.errors.map((e) => ({
      path:
        rename && (e.path === rename.prefix || e.path.startsWith(`${rename.prefix}.`) || e.path.startsWith(`${rename.prefix}[`))
          ? rename.as + e.path.slice(rename.prefix.length)
          : e.path,
      message: e.message,
    }));
    return { ok: false, errors };
  }
  const { format: _format, ...set } = r.value;
  return { ok: true, value: set.personas.length || set.scenarios.length ? set : undefined };
}

/** A fresh scenario to edit, paired with the first two personas of `merged`. */
export function newScenario(merged: ScenarioSet): ScenarioDef {
  const id = uniqueId('my-scenario', new Set(merged.scenarios.map((s) => s.id)));
  const [a, b] = merged.personas;
  return {
    id,
    title: 'New scenario',
    category: 'negotiation',
    text: 'Two people meet to settle something they disagree about.',
    goals: ['Get what you came for.', 'Give up as little as you can.'],
    relationship: 0,
    pairings: a && b ? [[a.id, b.id]] : [],
  };
}

/**
 * Puts `scenario` into the custom set (replacing the custom scenario `replaceId`, if it is being renamed, and any
 * with the same id), with the personas its pairings need taken from `merged`. Error paths read "scenario.goals[0]".
 */
export function putScenario(custom: Custom, scenario: ScenarioDef, merged: ScenarioSet, replaceId?: string): Validated<Custom> {
  const base = custom ?? EMPTY;
  const at = base.scenarios.findIndex((s) => s.id === (replaceId ?? scenario.id));
  const scenarios = base.scenarios.filter((s) => s.id !== scenario.id && s.id !== replaceId);
  const index = at < 0 ? scenarios.length : Math.min(at, scenarios.length);
  scenarios.splice(index, 0, scenario);
  return finish(completeCustomSet({ personas: base.personas, scenarios }, merged), { prefix: `scenarios[${index}]`, as: 'scenario' });
}

/** Drops a custom scenario (a bundled one it overrode comes back), and personas nothing needs any more. */
export function removeScenario(custom: Custom, id: string): Custom {
  if (!custom) return undefined;
  const next = completeCustomSet({ personas: custom.personas, scenarios: custom.scenarios.filter((s) => s.id !== id) });
  return next.personas.length || next.scenarios.length ? next : undefined;
}

/** A copy of scenario `id` under a new id, added to the custom set. */
export function duplicateScenario(custom: Custom, id: string, merged: ScenarioSet): { result: Validated<Custom>; id: string } {
  const s = getScenario(merged, id);
  if (!s) return { result: { ok: false, errors: [{ path: 'scenario', message: `no scenario "${id}"` }] }, id };
  const copyId = uniqueId(`${id.slice(0, 58)}-copy`, new Set(merged.scenarios.map((x) => x.id)));
  const copy: ScenarioDef = { ...(JSON.parse(JSON.stringify(s)) as ScenarioDef), id: copyId, title: `${s.title} (copy)`.slice(0, 80) };
  return { result: putScenario(custom, copy, merged), id: copyId };
}

/** A fresh persona to edit. */
export function newPersona(merged: ScenarioSet): PersonaDef {
  return {
    id: uniqueId('my-persona', new Set(merged.personas.map((p) => p.id))),
    name: 'Robin Vale',
    age: 35,
    occupation: 'librarian',
    pronouns: 'they/them',
    publicInfo: 'Runs the reading club at the town library.',
    personality: 'Curious and kind; values fairness.',
    decisionStyle: 'Listens first, then decides.',
    secret: 'Is thinking of moving abroad.',
  };
}

/** Puts a persona (new, or an edit of a bundled or custom one) into the custom set. Error paths read "persona.age". */
export function putPersona(custom: Custom, persona: PersonaDef, merged: ScenarioSet): Validated<Custom> {
  const base = custom ?? EMPTY;
  const at = base.personas.findIndex((p) => p.id === persona.id);
  const personas = [...base.personas];
  if (at < 0) personas.push(persona);
  else personas[at] = persona;
  const index = at < 0 ? personas.length - 1 : at;
  // completeCustomSet drops a persona identical to the bundled one that no custom scenario uses (an edit undone).
  const next = completeCustomSet({ personas, scenarios: base.scenarios }, merged);
  const kept = next.personas.findIndex((p) => p.id === persona.id);
  return finish(next, kept < 0 ? undefined : { prefix: `personas[${kept < 0 ? index : kept}]`, as: 'persona' });
}

/** Lays an imported set over the custom scenarios (imported ids win) and checks that the result fits in a link. */
export function importInto(custom: Custom, imported: ScenarioSet, merged: ScenarioSet): Validated<Custom> {
  const base = custom ?? EMPTY;
  const overlay = mergeScenarioSets(base, { personas: imported.personas, scenarios: imported.scenarios });
  return finish(completeCustomSet(overlay, mergeScenarioSets(merged, imported)));
}
