import type { CliCommand } from '../command.ts';
import { ConfigInvalid, readConfigInput } from '../config-input.ts';
import { encodeLinkFragment } from '../../src/core/config/index.ts';

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check a lab link or config.json; print the full config and its canonical link.',
  usage: 'npm run lab -- validate <link | config.json> [--json]',
  async run({ positionals, json, out }) {
    try {
      const { def, config, fromVersion } = readConfigInput(positionals[0]);
      const link = encodeLinkFragment(def, config);
      if (json) out(JSON.stringify({ valid: true, lab: def.name, version: def.version, fromVersion, config, link }, null, 2));
      else
        out(
          `valid ${def.title} config (schema v${def.version}${fromVersion !== def.version ? `, upgraded from v${fromVersion}` : ''})\n${JSON.stringify(config, null, 2)}\nlink: ${link}`,
        );
      return 0;
    } catch (e) {
      if (e instanceof ConfigInvalid && json) {
        out(JSON.stringify({ valid: false, errors: e.errors }, null, 2));
        return 2;
      }
      throw e;
    }
  },
};
