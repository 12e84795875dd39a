/**
 * numberBounds reads a number field's limits from a lab's zod schema, for controls outside the schema form. The
 * independent reference is zod's own JSON Schema export (what the schema form uses): every bounded number field of
 * every lab must give the same minimum, maximum and integer-ness both ways.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numberBounds } from '../../src/core/config/bounds';
import { LABS } from '../../src/labs/registry';

interface JsonSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
}

function numberFields(schema: JsonSchema, path: string[] = []): { path: string[]; field: JsonSchema }[] {
  if (schema.properties) return Object.entries(schema.properties).flatMap(([k, v]) => numberFields(v, [...path, k]));
  return (schema.type === 'number' || schema.type === 'integer') && schema.minimum !== undefined && schema.maximum !== undefined
    ? [{ path, field: schema }]
    : [];
}

describe('numberBounds', () => {
  it('agrees with the JSON Schema export on every bounded number field of every lab', () => {
    let checked = 0;
    for (const lab of LABS) {
      const json = z.toJSONSchema(lab.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      for (const { path, field } of numberFields(json)) {
        expect(numberBounds(lab.schema, path), `${lab.name} ${path.join('.')}`).toEqual({
          min: field.minimum,
          max: field.maximum,
          step: field.type === 'integer' ? 1 : 'any',
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(numberBounds(LABS.find((l) => l.name === 'opinions')!.schema, ['live', 'stepsPerFrame'])).toEqual({ min: 1, max: 1000, step: 1 });
  });
  it('refuses a path that names no bounded number', () => {
    const opinions = LABS.find((l) => l.name === 'opinions')!.schema;
    expect(() => numberBounds(opinions, ['live', 'nothing'])).toThrow('no field "live.nothing"');
    expect(() => numberBounds(opinions, ['mode'])).toThrow('"mode" is not a bounded number');
  });
});
