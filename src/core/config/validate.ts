import type { z } from 'zod';
import type { ConfigOf, LabDefinition } from './lab-definition';
import { formatPath, type FieldError, type Validated } from './errors';
import { scanUntrusted } from './untrusted';

/** Brings a config of an older schema version up to the lab's current one, or explains why it cannot. */
export function migrate(def: LabDefinition, raw: Record<string, unknown>, fromVersion: number): Validated<Record<string, unknown>> {
  if (!Number.isInteger(fromVersion) || fromVersion < 1) {
    return { ok: false, errors: [{ path: 'version', message: `"${String(fromVersion)}" is not a schema version` }] };
  }
  if (fromVersion > def.version) {
    return {
      ok: false,
      errors: [
        {
          path: 'version',
          message: `this link was made by a newer version of the ${def.title} lab (schema v${fromVersion}; this app knows up to v${def.version}). Update the app to open it.`,
        },
      ],
    };
  }
  let config = raw;
  for (let v = fromVersion; v < def.version; v++) {
    try {
      config = def.migrations[v](config);
    } catch (e) {
      return { ok: false, errors: [{ path: 'version', message: `could not upgrade from schema v${v}: ${(e as Error).message}` }] };
    }
  }
  return { ok: true, value: config };
}

/** Checks an untrusted config against a lab's schema, filling defaults. Never throws. */
export function validateConfig<D extends LabDefinition>(def: D, raw: unknown, version = def.version): Validated<ConfigOf<D>> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: '(root)', message: 'a config must be a JSON object' }] };
  }
  const hostile = scanUntrusted(raw);
  if (hostile.length) return { ok: false, errors: hostile };
  const migrated = migrate(def, raw as Record<string, unknown>, version);
  if (!migrated.ok) return migrated;
  const parsed = (def.schema as z.ZodObject).safeParse(migrated.value);
  if (parsed.success) return { ok: true, value: parsed.data as ConfigOf<D> };
  const errors: FieldError[] = parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return { ok: false, errors };
}

export function defaultConfig<D extends LabDefinition>(def: D): ConfigOf<D> {
  return (def.schema as z.ZodObject).parse({}) as ConfigOf<D>;
}

/**
 * A stored run's config as its lab's view reads it: migrated from the version it was stored with and parsed with the
 * lab's schema; null when it no longer fits (a damaged store), so that a view falls back to its own settings rather
 * than reading fields of the wrong shape.
 */
export function storedConfig<D extends LabDefinition>(def: D, run: { config: unknown; schemaVersion: number } | null | undefined): ConfigOf<D> | null {
  if (!run) return null;
  const checked = validateConfig(def, run.config, run.schemaVersion);
  return checked.ok ? checked.value : null;
}
