import { formatPath, type FieldError } from './errors';

/** Keys that could reach Object.prototype if some code ever merged untrusted data into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Markup and script URLs have no place in a lab config. Svelte never renders config text as HTML, but a link
 * carrying them is an attack or a corruption either way, so it is refused rather than silently accepted.
 */
const ACTIVE_CONTENT =
  /<\s*\/?\s*(script|img|iframe|svg|object|embed|style|link|meta|a|body|html|math|form|input|video|audio|base)\b|javascript\s*:|vbscript\s*:|data\s*:\s*text\/html|\bon[a-z]+\s*=/i;

const MAX_DEPTH = 32;

/** Walks parsed JSON from an untrusted source and lists every forbidden key and active-content string. */
export function scanUntrusted(value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const walk = (v: unknown, path: PropertyKey[]) => {
    if (errors.length >= 20) return;
    if (path.length > MAX_DEPTH) {
      errors.push({ path: formatPath(path), message: `nested deeper than ${MAX_DEPTH} levels` });
      return;
    }
    if (typeof v === 'string') {
      if (ACTIVE_CONTENT.test(v)) errors.push({ path: formatPath(path), message: 'contains HTML or script markup, which a config never needs' });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    if (v && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        if (FORBIDDEN_KEYS.has(key)) {
          errors.push({ path: formatPath([...path, key]), message: `the key "${key}" is not allowed` });
          continue;
        }
        walk((v as Record<string, unknown>)[key], [...path, key]);
      }
    }
  };
  walk(value, []);
  return errors;
}

/** JSON.parse that keeps "__proto__" as a plain own key (so scanUntrusted can refuse it) and never throws. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `not valid JSON (${(e as Error).message})` };
  }
}
