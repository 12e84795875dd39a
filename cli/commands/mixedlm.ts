import { readFileSync } from 'node:fs';
import { CliUsageError, type CliCommand } from '../command.ts';
import { mixedLMFromColumns } from '../../src/core/analysis-api.ts';
import { fmt, numberOption, parseCsv } from './analysis-io.ts';

export const mixedlmCommand: CliCommand = {
  name: 'mixedlm',
  summary: 'Linear mixed model with crossed random intercepts (REML), e.g. cooperation ~ similarity.',
  usage: 'npm run lab -- mixedlm <rows.csv> --formula "y ~ sim + x2" --crossed colA,colB [--level 0.95] [--json]',
  options: { formula: { type: 'string' }, crossed: { type: 'string' }, level: { type: 'string' } },
  async run({ positionals, values, json, out }) {
    const file = positionals[0];
    if (!file) throw new CliUsageError('give the rows .csv file');
    if (typeof values.formula !== 'string') throw new CliUsageError('--formula is required, e.g. "y ~ sim + x2"');
    if (typeof values.crossed !== 'string') throw new CliUsageError('--crossed is required, e.g. colA,colB');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new CliUsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
    const level = numberOption(values.level, 'level', 0.95);
    const crossed = values.crossed
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const r = mixedLMFromColumns(parseCsv(text), values.formula, crossed, level);
    if (json) {
      out(
        JSON.stringify({
          names: r.names,
          coef: r.coef,
          se: r.se,
          z: r.z,
          p: r.p,
          ciLow: r.ciLow,
          ciHigh: r.ciHigh,
          level,
          vcomp: r.vcomp,
          scale: r.scale,
          llf: r.llf,
          n: r.n,
          converged: r.converged,
        }),
      );
      return 0;
    }
    const w = Math.max(9, ...r.names.map((s) => s.length));
    const lines = [
      `Mixed linear model (REML), ${r.n} rows, crossed random intercepts: ${r.vcomp.map((v) => `${v.name} (${v.levels} levels)`).join(', ')}${r.converged ? '' : '  [not converged]'}`,
      `${'term'.padEnd(w)}  ${'coef'.padStart(10)} ${'SE'.padStart(10)} ${'z'.padStart(8)} ${'p'.padStart(10)}   ${Math.round(level * 100)}% CI`,
      ...r.names.map(
        (n, i) =>
          `${n.padEnd(w)}  ${fmt(r.coef[i], 4).padStart(10)} ${fmt(r.se[i], 4).padStart(10)} ${fmt(r.z[i], 2).padStart(8)} ${r.p[i].toExponential(2).padStart(10)}   [${fmt(r.ciLow[i], 4)}, ${fmt(r.ciHigh[i], 4)}]`,
      ),
      '',
      'variance components: ' + [...r.vcomp.map((v) => `${v.name} ${fmt(v.variance, 4)}`), `residual ${fmt(r.scale, 4)}`].join(', '),
      `REML log-likelihood ${fmt(r.llf, 4)}`,
    ];
    out(lines.join('\n'));
    return 0;
  },
};
