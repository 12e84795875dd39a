import { CliUsageError, type CliCommand } from '../command.ts';
import { cka, type CkaGrid } from '../../src/core/cka.ts';
import { fmt, layerStack, nested, wholeNumberOption, readTensors } from './analysis-io.ts';

function gridJson(g: CkaGrid, L1: number, L2: number) {
  const base = { grid: nested(g.grid, L1, L2), global: g.global, maxAligned: g.maxAligned, regions: g.regions };
  return g.p ? { ...base, p: { grid: nested(g.p.grid, L1, L2), global: g.p.global, maxAligned: g.p.maxAligned, regions: g.p.regions } } : base;
}

export const ckaCommand: CliCommand = {
  name: 'cka',
  summary: 'Linear CKA (biased and debiased HSIC) over every layer pair of two models, with poolings and regions.',
  usage:
    'npm run lab -- cka <file.safetensors> [--permutations N] [--seed S] [--json]\n  tensors: x F32 [m, L1, H1], y F32 [m, L2, H2] (same m probes, same order)',
  options: { permutations: { type: 'string' }, seed: { type: 'string' } },
  async run({ positionals, values, json, out }) {
    const t = readTensors(positionals[0]);
    const x = layerStack(t, 'x');
    const y = layerStack(t, 'y');
    if (x.n !== y.n) throw new CliUsageError(`x has ${x.n} probes, y has ${y.n}`);
    const permutations = wholeNumberOption(values.permutations, 'permutations', 0, 0);
    const seed = typeof values.seed === 'string' ? values.seed : 0;
    const r = cka(x, y, { permutations, seed });
    if (json) {
      out(JSON.stringify({ m: r.m, L1: r.L1, L2: r.L2, permutations, linear: gridJson(r.linear, r.L1, r.L2), debiased: gridJson(r.debiased, r.L1, r.L2) }));
      return 0;
    }
    const row = (name: string, g: CkaGrid) =>
      `  ${name.padEnd(9)} global ${fmt(g.global)}  max-aligned ${fmt(g.maxAligned)}  early ${fmt(g.regions.early)}  mid ${fmt(g.regions.mid)}  late ${fmt(g.regions.late)}` +
      (g.p
        ? `\n  ${''.padEnd(9)} p: global ${fmt(g.p.global, 4)}  max-aligned ${fmt(g.p.maxAligned, 4)}  early ${fmt(g.p.regions.early, 4)}  mid ${fmt(g.p.regions.mid, 4)}  late ${fmt(g.p.regions.late, 4)}`
        : '');
    out(
      [
        `CKA over ${r.L1} × ${r.L2} layers, ${r.m} probes${permutations ? `, ${permutations} permutations` : ''}`,
        row('linear', r.linear),
        row('debiased', r.debiased),
      ].join('\n'),
    );
    return 0;
  },
};
