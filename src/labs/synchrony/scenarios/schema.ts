/**
 * The scenario-set format (docs/formats.md, "Scenario sets"): personas and Sotopia-style scenarios that pair them.
 * Everything here may come from a file or a link, so it is validated strictly: unique ids, pairings that name
 * existing personas (never the same one twice), short single-line text, capped counts, no markup, no chat-template
 * tokens and no prototype keys.
 */
import { z } from 'zod';
import { formatPath, type FieldError, type Validated } from '../../../core/config/errors';
import { parseJson, scanUntrusted } from '../../../core/config/untrusted';

export const SCENARIO_CATEGORIES = ['negotiation', 'cooperation', 'competition', 'persuasion', 'social-norms'] as const;
export type ScenarioCategory = (typeof SCENARIO_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<ScenarioCategory, string> = {
  negotiation: 'Negotiation',
  cooperation: 'Cooperation',
  competition: 'Competition',
  persuasion: 'Persuasion',
  'social-norms': 'Social norms',
};

export const SCENARIO_SET_FORMAT = 'social-minds-lab/scenario-set@1';

export const SCENARIO_LIMITS = {
  /** A set (a file). */
  scenarios: 500,
  personas: 1000,
  pairings: 50,
  facts: 6,
  id: 64,
  title: 80,
  name: 48,
  occupation: 80,
  pronouns: 24,
  /** publicInfo, personality, decisionStyle, secret. */
  bio: 240,
  text: 400,
  goal: 240,
  fact: 240,
  /** Bytes of a file read by an import. */
  fileBytes: 2_000_000,
  /** UTF-8 bytes of the custom scenarios a link carries (links are capped at 64 KB decoded; the rest of the config is small). */
  linkBytes: 40_000,
} as const;

const ID_RE = /^[\w.-]+$/;
const RESERVED_IDS = new Set(['__proto__', 'constructor', 'prototype']);
/** Control characters (newlines included): every field is one line of a prompt, and a newline could forge a turn. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern finds
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Chat-template control tokens ("<|im_end|>", "</s>") would break the prompt's framing. */
const CHAT_TOKEN_RE = /<\|[^|]*\|>|<\/?s>/i;

const id = (what: string) =>
  z
    .string()
    .min(1, `a ${what} id may not be empty`)
    .max(SCENARIO_LIMITS.id)
    .regex(ID_RE, `a ${what} id may hold only letters, digits, "_", "." and "-"`)
    .refine((s) => !RESERVED_IDS.has(s), `"__proto__", "constructor" and "prototype" are not allowed as ids`);

const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, 'may not be empty')
    .refine((s) => !CONTROL_RE.test(s), 'must be one line without control characters')
    .refine((s) => !CHAT_TOKEN_RE.test(s), 'may not hold chat-template tokens such as <|im_end|>');

export const personaSchema = z.strictObject({
  id: id('persona'),
  name: line(SCENARIO_LIMITS.name).regex(/^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u, 'a name may hold only letters, spaces, ".", "\'" and "-"'),
  age: z.number().int().min(1).max(120),
  occupation: line(SCENARIO_LIMITS.occupation),
  pronouns: line(SCENARIO_LIMITS.pronouns),
  publicInfo: line(SCENARIO_LIMITS.bio),
  personality: line(SCENARIO_LIMITS.bio),
  decisionStyle: line(SCENARIO_LIMITS.bio),
  secret: line(SCENARIO_LIMITS.bio),
});

export const factSchema = z.strictObject({
  text: line(SCENARIO_LIMITS.fact),
  /** Shown only to this agent (0: the first persona of a pairing, 1: the second). */
  visibleTo: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const scenarioSchema = z.strictObject({
  id: id('scenario'),
  title: line(SCENARIO_LIMITS.title),
  category: z.enum(SCENARIO_CATEGORIES),
  text: line(SCENARIO_LIMITS.text),
  /** [agent 0's goal, agent 1's goal]. */
  goals: z.tuple([line(SCENARIO_LIMITS.goal), line(SCENARIO_LIMITS.goal)]),
  facts: z.array(factSchema).max(SCENARIO_LIMITS.facts).optional(),
  /** 0 strangers, 1 know the name, 2 acquaintances, 3 friends, 4 romantic partners, 5 family. */
  relationship: z.number().int().min(0).max(5),
  /** [persona id of agent 0, persona id of agent 1]. */
  pairings: z
    .array(z.tuple([id('persona'), id('persona')]))
    .min(1)
    .max(SCENARIO_LIMITS.pairings),
});

export type PersonaDef = z.output<typeof personaSchema>;
export type ScenarioDef = z.output<typeof scenarioSchema>;
export type ScenarioFactDef = z.output<typeof factSchema>;

/** Cross-reference checks of a whole set: unique ids, pairings naming existing and distinct personas. */
function checkReferences(set: { personas: PersonaDef[]; scenarios: ScenarioDef[] }, ctx: z.RefinementCtx): void {
  const personaIds = new Set<string>();
  set.personas.forEach((p, i) => {
    if (personaIds.has(p.id)) ctx.addIssue({ code: 'custom', path: ['personas', i, 'id'], message: `duplicate persona id "${p.id}"` });
    personaIds.add(p.id);
  });
  const scenarioIds = new Set<string>();
  set.scenarios.forEach((s, i) => {
    if (scenarioIds.has(s.id)) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'id'], message: `duplicate scenario id "${s.id}"` });
    scenarioIds.add(s.id);
    const seen = new Set<string>();
    s.pairings.forEach(([a, b], j) => {
      const path = ['scenarios', i, 'pairings', j];
      if (!personaIds.has(a)) ctx.addIssue({ code: 'custom', path: [...path, 0], message: `no persona with id "${a}" in this set` });
      if (!personaIds.has(b)) ctx.addIssue({ code: 'custom', path: [...path, 1], message: `no persona with id "${b}" in this set` });
      if (a === b) ctx.addIssue({ code: 'custom', path, message: `persona "${a}" is paired with itself` });
      const key = `${a}\u0000${b}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path, message: `the pairing ${a} × ${b} is listed twice` });
      seen.add(key);
    });
  });
}

/** A scenario set as a file holds it. `format` is optional on import and always written on export. */
export const scenarioSetSchema = z
  .strictObject({
    format: z.literal(SCENARIO_SET_FORMAT).optional(),
    personas: z.array(personaSchema).max(SCENARIO_LIMITS.personas),
    scenarios: z.array(scenarioSchema).max(SCENARIO_LIMITS.scenarios),
  })
  .superRefine(checkReferences);

export type ScenarioSet = z.output<typeof scenarioSetSchema>;

export function utf8Bytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** The same set, capped so that it fits in a link (the lab config's `customScenarios`). */
export const customScenarioSetSchema = scenarioSetSchema.superRefine((set, ctx) => {
  const bytes = utf8Bytes(set);
  if (bytes > SCENARIO_LIMITS.linkBytes) {
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: `custom scenarios take ${bytes} bytes; a link carries at most ${SCENARIO_LIMITS.linkBytes} (drop some scenarios or personas, or share the file instead)`,
    });
  }
});

/** Validates an untrusted, already parsed scenario set (from a file or a link). Never throws. */
export function validateScenarioSet(json: unknown, opts: { forLink?: boolean } = {}): Validated<ScenarioSet> {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, errors: [{ path: '(root)', message: 'a scenario set must be a JSON object with "personas" and "scenarios"' }] };
  }
  const hostile = scanUntrusted(json);
  if (hostile.length) return { ok: false, errors: hostile };
  const parsed = (opts.forLink ? customScenarioSetSchema : scenarioSetSchema).safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldError[] = parsed.error.issues.slice(0, 50).map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return { ok: false, errors };
}

/** Reads a scenario-set file's text: size cap, JSON, then validateScenarioSet. */
export function parseScenarioSetText(text: string, opts: { forLink?: boolean } = {}): Validated<ScenarioSet> {
  if (text.length > SCENARIO_LIMITS.fileBytes) {
    return { ok: false, errors: [{ path: '(file)', message: `the file has ${text.length} characters; at most ${SCENARIO_LIMITS.fileBytes} are read` }] };
  }
  const json = parseJson(text);
  if (!json.ok) return { ok: false, errors: [{ path: '(file)', message: json.message }] };
  return validateScenarioSet(json.value, opts);
}
