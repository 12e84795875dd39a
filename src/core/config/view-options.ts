import type { FieldError } from './errors';

/**
 * How a link opens its lab, beside the config it carries: a teacher's choices for a class. They travel in the link's
 * query (`#/<lab>?c=…&preset=…&hide=settings&lock=1&run=1&big=1`) and are read as strictly as the config: an unknown value
 * is reported and ignored, never executed or shown as markup.
 */
export interface ViewOptions {
  /** The lab preset the link was made from: the page shows its "what to notice" caption. */
  preset: string | null;
  /** Hide the settings (a student sees the run and its figures only). */
  hideSettings: boolean;
  /** Hide these groups of settings only (the lab schema's top-level keys, e.g. "runtime"); ignored when all are hidden. */
  hiddenGroups: string[];
  /** Lock the config: the settings are shown read-only, and the presets and the view's editors cannot change it. */
  locked: boolean;
  /** Start the run as soon as the page opens. */
  autorun: boolean;
  /** Presenter mode: larger type for a projector. */
  presenter: boolean;
}

export const DEFAULT_VIEW_OPTIONS: ViewOptions = { preset: null, hideSettings: false, hiddenGroups: [], locked: false, autorun: false, presenter: false };

const PRESET_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const GROUP_ID = /^[a-zA-Z][a-zA-Z0-9]{0,39}$/;
const MAX_GROUPS = 16;
const FLAGS = { run: '1', big: '1', lock: '1' } as const;
const ALL_SETTINGS = 'settings';

/** `hide=settings` hides them all; `hide=runtime,analysis` names groups (checked against the lab by its page). */
function parseHide(v: string | null, errors: FieldError[]): { hideSettings: boolean; hiddenGroups: string[] } {
  if (v === null) return { hideSettings: false, hiddenGroups: [] };
  if (v === ALL_SETTINGS) return { hideSettings: true, hiddenGroups: [] };
  const names = v.split(',');
  if (names.length > MAX_GROUPS || !names.every((n) => GROUP_ID.test(n))) {
    errors.push({
      path: 'hide',
      message: `the link's "hide" option is "${v.slice(0, 20)}"; it can be "settings" or a comma-separated list of settings groups, so it was ignored`,
    });
    return { hideSettings: false, hiddenGroups: [] };
  }
  return { hideSettings: false, hiddenGroups: [...new Set(names)] };
}

/** Reads the view options of a link's query; each bad value is an error that names it, and is ignored. */
export function parseViewOptions(params: URLSearchParams): { options: ViewOptions; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const flag = (key: keyof typeof FLAGS): boolean => {
    const v = params.get(key);
    if (v === null) return false;
    if (v === FLAGS[key]) return true;
    errors.push({ path: key, message: `the link's "${key}" option is "${v.slice(0, 20)}"; it can only be "${FLAGS[key]}", so it was ignored` });
    return false;
  };
  const preset = params.get('preset');
  if (preset !== null && !PRESET_ID.test(preset))
    errors.push({ path: 'preset', message: 'the link names a preset that is not a valid preset id, so it was ignored' });
  return {
    options: {
      preset: preset !== null && PRESET_ID.test(preset) ? preset : null,
      ...parseHide(params.get('hide'), errors),
      locked: flag('lock'),
      autorun: flag('run'),
      presenter: flag('big'),
    },
    errors,
  };
}

/** The query parameters for `options` ('' for the defaults), to append to a link's `?c=…`. */
export function viewOptionsQuery(options: ViewOptions): string {
  const parts: string[] = [];
  if (options.preset !== null && PRESET_ID.test(options.preset)) parts.push(`preset=${options.preset}`);
  if (options.hideSettings) parts.push(`hide=${ALL_SETTINGS}`);
  else if (options.hiddenGroups.length)
    parts.push(
      `hide=${options.hiddenGroups
        .filter((g) => GROUP_ID.test(g))
        .slice(0, MAX_GROUPS)
        .join(',')}`,
    );
  if (options.locked) parts.push(`lock=${FLAGS.lock}`);
  if (options.autorun) parts.push(`run=${FLAGS.run}`);
  if (options.presenter) parts.push(`big=${FLAGS.big}`);
  return parts.map((p) => `&${p}`).join('');
}
