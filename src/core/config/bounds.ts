import type { z } from 'zod';

/** What a number field of a config allows, read from its schema: for a control outside the schema form. */
export interface NumberBounds {
  min: number;
  max: number;
  /** 1 for whole numbers, 'any' otherwise (an <input>'s step). */
  step: 1 | 'any';
}

/** The schema inside a default, prefault, optional or nullable wrapper. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let def = s._zod.def as { innerType?: z.ZodType }; def.innerType; def = s._zod.def as { innerType?: z.ZodType }) s = def.innerType;
  return s;
}

/**
 * The bounds of the number at `path` in a lab's config schema ("live", "stepsPerFrame"). Views that set a field with
 * their own control (a slider, a generator panel) take their limits from here, never from a copy. Throws when `path`
 * names no bounded number field: a view asking for one is a programming error, caught by its tests.
 */
export function numberBounds(schema: z.ZodType, path: readonly string[]): NumberBounds {
  let at = unwrap(schema);
  for (const key of path) {
    const shape = (at as z.ZodObject).shape as Record<string, z.ZodType> | undefined;
    if (!shape?.[key]) throw new Error(`numberBounds: no field "${path.join('.')}" in the schema`);
    at = unwrap(shape[key]);
  }
  const n = at as z.ZodNumber;
  if (n.type !== 'number' || !Number.isFinite(n.minValue) || !Number.isFinite(n.maxValue)) {
    throw new Error(`numberBounds: "${path.join('.')}" is not a bounded number`);
  }
  return { min: n.minValue as number, max: n.maxValue as number, step: n.isInt ? 1 : 'any' };
}
