import { existsSync, readFileSync } from 'node:fs';
import { CliUsageError } from './command.ts';
import { decodeLink, validateConfig, type DecodedLink } from '../src/core/config/index.ts';
import { parseJson } from '../src/core/config/untrusted.ts';
import { LABS } from '../src/labs/registry.ts';

/** A lab config from a link (URL, fragment or payload) or a config.json file ({lab, v, config}, as in bundles). */
export function readConfigInput(input: string | undefined): DecodedLink {
  if (!input) throw new CliUsageError('give a link or a config.json file');
  if (existsSync(input)) {
    const parsed = parseJson(readFileSync(input, 'utf8'));
    if (!parsed.ok) throw new CliUsageError(`${input} is ${parsed.message}`);
    const env = parsed.value as { lab?: unknown; v?: unknown; config?: unknown };
    const def = LABS.find((d) => d.name === env?.lab);
    if (!def) throw new CliUsageError(`${input} must hold {"lab": one of ${LABS.map((d) => d.name).join(', ')}, "v": <version>, "config": {…}}`);
    const result = validateConfig(def, env.config ?? {}, typeof env.v === 'number' ? env.v : def.version);
    if (!result.ok) throw new ConfigInvalid(result.errors);
    return { def, config: result.value, fromVersion: typeof env.v === 'number' ? env.v : def.version };
  }
  const result = decodeLink(input, LABS);
  if (!result.ok) throw new ConfigInvalid(result.errors);
  return result.value;
}

export class ConfigInvalid extends CliUsageError {
  constructor(public errors: { path: string; message: string }[]) {
    super(`the config is not valid:\n${errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')}`);
  }
}
