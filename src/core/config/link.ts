import { deflateSync, Inflate, strToU8, strFromU8 } from 'fflate';
import type { ConfigOf, LabDefinition, LabName } from './lab-definition';
import type { FieldError, Validated } from './errors';
import { fromBase64Url, toBase64Url } from './base64url';
import { parseJson } from './untrusted';
import { validateConfig } from './validate';
import { DEFAULT_VIEW_OPTIONS, parseViewOptions, viewOptionsQuery, type ViewOptions } from './view-options';

/** A link's decoded JSON may not exceed this, whatever its compressed size (a zip bomb stops here). */
export const MAX_DECODED_BYTES = 64 * 1024;
/** Longer fragments are refused before any decoding work. */
export const MAX_ENCODED_CHARS = 96 * 1024;

export interface LinkEnvelope {
  lab: LabName;
  v: number;
  /** Untyped until the lab's schema parses it (after migrating it from version `v`). */
  config: unknown;
}

/**
 * `#/<lab>?c=<base64url(deflate(JSON {lab, v, config}))>`: the route names the lab, the payload repeats it; view
 * options (a teacher's link: preset, hidden settings, run on open, presenter mode) follow as plain parameters.
 */
export function encodeLinkFragment(def: LabDefinition, config: ConfigOf<LabDefinition>, view: ViewOptions = DEFAULT_VIEW_OPTIONS): string {
  const envelope: LinkEnvelope = { lab: def.name, v: def.version, config };
  const payload = toBase64Url(deflateSync(strToU8(JSON.stringify(envelope)), { level: 9 }));
  return `#/${def.name}?c=${payload}${viewOptionsQuery(view)}`;
}

function inflateCapped(bytes: Uint8Array): Uint8Array | 'too-big' | 'corrupt' {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooBig = false;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > MAX_DECODED_BYTES) tooBig = true;
    else chunks.push(chunk);
  });
  try {
    // Feed in small slices so an oversized stream is noticed before it is fully expanded.
    for (let i = 0; i < bytes.length && !tooBig; i += 1024) inflater.push(bytes.subarray(i, i + 1024), i + 1024 >= bytes.length);
  } catch {
    return tooBig ? 'too-big' : 'corrupt';
  }
  if (tooBig) return 'too-big';
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export interface DecodedLink<D extends LabDefinition = LabDefinition> {
  def: D;
  config: ConfigOf<D>;
  /** Schema version the link was written with (older ones were migrated). */
  fromVersion: number;
}

/**
 * Decodes an untrusted payload (the part after `c=`) for a registry of labs. Every failure comes back as a
 * FieldError with a reason a person can act on; nothing from the link is executed or rendered as HTML.
 */
export function decodeLinkPayload(payload: string, labs: readonly LabDefinition[], routeLab?: string): Validated<DecodedLink> {
  const fail = (path: string, message: string): Validated<DecodedLink> => ({ ok: false, errors: [{ path, message }] });
  if (payload.length > MAX_ENCODED_CHARS) return fail('link', `the link is too long (${payload.length} characters; the limit is ${MAX_ENCODED_CHARS})`);
  const bytes = fromBase64Url(payload);
  if (!bytes) return fail('link', 'the link is damaged: it is not valid base64url (was it cut off or edited?)');
  const inflated = inflateCapped(bytes);
  if (inflated === 'too-big') return fail('link', `the link's config is larger than ${MAX_DECODED_BYTES / 1024} KB once decompressed`);
  if (inflated === 'corrupt' || inflated.length === 0) return fail('link', 'the link is damaged: its compressed data does not decode');
  let text: string;
  try {
    text = strFromU8(inflated);
  } catch {
    return fail('link', 'the link is damaged: its config is not UTF-8 text');
  }
  const json = parseJson(text);
  if (!json.ok) return fail('link', `the link's config is ${json.message}`);
  const env = json.value as Partial<LinkEnvelope> | null;
  if (!env || typeof env !== 'object' || Array.isArray(env)) return fail('link', 'the link does not hold a lab config');
  if (typeof env.lab !== 'string') return fail('lab', 'the link does not say which lab it is for');
  const def = labs.find((d) => d.name === env.lab);
  if (!def) return fail('lab', `unknown lab "${env.lab.slice(0, 40)}"; this app has ${labs.map((d) => d.name).join(', ')}`);
  if (routeLab !== undefined && routeLab !== def.name)
    return fail('lab', `the link's address is for "${routeLab.slice(0, 40)}" but its config is for "${def.name}"`);
  if (typeof env.v !== 'number') return fail('version', 'the link has no schema version');
  const result = validateConfig(def, env.config, env.v);
  if (!result.ok) return result;
  return { ok: true, value: { def, config: result.value, fromVersion: env.v } };
}

export interface ParsedFragment {
  route: string;
  payload: string | null;
  view: ViewOptions;
  /** View options the link gave that could not be read (each ignored). */
  viewErrors: FieldError[];
}

/** Splits `#/<lab>?c=<payload>&<view options>` (or the same without `#`). */
export function parseFragment(fragment: string): ParsedFragment {
  const f = fragment.replace(/^#/, '');
  const q = f.indexOf('?');
  const route = (q < 0 ? f : f.slice(0, q)).replace(/^\/+|\/+$/g, '');
  if (q < 0) return { route, payload: null, view: DEFAULT_VIEW_OPTIONS, viewErrors: [] };
  const params = new URLSearchParams(f.slice(q + 1));
  const { options, errors } = parseViewOptions(params);
  return { route, payload: params.get('c'), view: options, viewErrors: errors };
}

/** For the CLI and imports: a full URL, a bare fragment, or a bare payload. */
export function decodeLink(link: string, labs: readonly LabDefinition[]): Validated<DecodedLink> {
  const hash = link.includes('#') ? link.slice(link.indexOf('#')) : link;
  if (hash.startsWith('#')) {
    const { route, payload } = parseFragment(hash);
    if (!payload) return { ok: false, errors: [{ path: 'link', message: 'the link has no config (no "c=" part)' }] };
    return decodeLinkPayload(payload, labs, route || undefined);
  }
  return decodeLinkPayload(link.trim(), labs);
}
