/** One reason a config was refused, with the dotted path of the field ("graph.n", "personas[3]"). */
export interface FieldError {
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

export function refuse<T>(path: string, message: string): Validated<T> {
  return { ok: false, errors: [{ path, message }] };
}
