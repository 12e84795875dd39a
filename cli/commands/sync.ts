import { CliUsageError, type CliCommand } from '../command.ts';
import { chooseAlphaWith, syncR2With } from '../../src/core/synchrony.ts';
import { createNodeGridPool } from '../grid-pool-node.ts';
import { fmt, intVector, layerStack, nested, numberOption, readTensors } from './analysis-io.ts';

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: 'SyncR² from paired layer states: ridge test R² for every (source, target) layer pair over grouped splits.',
  usage:
    'npm run lab -- sync <file.safetensors> [--alpha 0.1 | --alpha-cv 0.01,0.1,1,10] [--split-seeds 0,1,2] [--test-fraction 0.2] [--top-k 1] [--json]\n' +
    '  tensors: source F32 [n, L_A, H_A], target F32 [n, L_B, H_B], group I32 [n], optional split U8 [n] (1 = test)\n' +
    '  the split grids run on one worker per core; --workers N sets how many (the numbers do not depend on it)',
  options: {
    alpha: { type: 'string' },
    'alpha-cv': { type: 'string' },
    'split-seeds': { type: 'string' },
    'test-fraction': { type: 'string' },
    'top-k': { type: 'string' },
    workers: { type: 'string' },
  },
  async run({ positionals, values, json, out }) {
    const t = readTensors(positionals[0]);
    const source = layerStack(t, 'source');
    const target = layerStack(t, 'target');
    if (source.n !== target.n) throw new CliUsageError(`source has ${source.n} samples, target ${target.n}`);
    const group = intVector(t, 'group', source.n);
    const split = t.split ? Uint8Array.from(intVector(t, 'split', source.n), (v) => (v ? 1 : 0)) : undefined;
    let alpha = numberOption(values.alpha, 'alpha', 0.1);
    const workers = values.workers === undefined ? undefined : numberOption(values.workers, 'workers', NaN);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) throw new CliUsageError('--workers needs a positive integer');
    const pool = createNodeGridPool(workers);
    try {
      let alphaCv: { alphas: number[]; scores: number[] } | undefined;
      if (typeof values['alpha-cv'] === 'string') {
        if (values.alpha !== undefined) throw new CliUsageError('give either --alpha or --alpha-cv');
        const alphas = values['alpha-cv'].split(',').map((a) => numberOption(a.trim(), 'alpha-cv', NaN));
        if (!alphas.length || alphas.some((a) => !(a > 0))) throw new CliUsageError('--alpha-cv needs positive numbers, e.g. 0.01,0.1,1,10');
        const cv = await chooseAlphaWith(pool, source, target, group, alphas, { testFraction: numberOption(values['test-fraction'], 'test-fraction', 0.2) });
        alpha = cv.alpha;
        alphaCv = { alphas, scores: cv.scores };
      }
      const seeds =
        typeof values['split-seeds'] === 'string'
          ? values['split-seeds']
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
              .map((s) => (/^-?\d+$/.test(s) ? Number(s) : s))
          : [0, 1, 2];
      if (!seeds.length) throw new CliUsageError('--split-seeds is empty');
      const testFraction = numberOption(values['test-fraction'], 'test-fraction', 0.2);
      const topK = numberOption(values['top-k'], 'top-k', 1);
      const r = await syncR2With(pool, source, target, group, { alpha, splitSeeds: seeds, testFraction, split, topK });
      const { LA, LB } = r;
      if (json) {
        out(
          JSON.stringify({
            r2: nested(r.r2, LA, LB),
            r2PerSplit: r.r2PerSplit.map((g) => nested(g, LA, LB)),
            best: Array.from(r.best),
            bestR2: Array.from(r.bestR2),
            syncR2: r.syncR2,
            syncR2Unclamped: r.syncR2Unclamped,
            ...(r.syncR2TopK !== undefined ? { syncR2TopK: r.syncR2TopK } : {}),
            se: r.se,
            nTrain: r.nTrain,
            nTest: r.nTest,
            alpha,
            ...(alphaCv ? { alphaCv } : {}),
            splits: split ? ['explicit'] : seeds,
          }),
        );
        return 0;
      }
      const lines = [
        `SyncR² = ${fmt(r.syncR2, 4)} ± ${fmt(r.se, 4)} (SE over ${r.r2PerSplit.length} split${r.r2PerSplit.length > 1 ? 's' : ''}), unclamped ${fmt(r.syncR2Unclamped, 4)}` +
          (r.syncR2TopK !== undefined ? `, top-${topK} ${fmt(r.syncR2TopK, 4)}` : ''),
        `samples: ${source.n} (train ${r.nTrain.join('/')}, test ${r.nTest.join('/')}), layers ${LA} → ${LB}, H ${source.H} → ${target.H}, α = ${alpha}` +
          (alphaCv
            ? ` (chosen by grouped CV among ${alphaCv.alphas.join(', ')}; mean unclamped SyncR² ${alphaCv.scores.map((v) => fmt(v, 4)).join(', ')})`
            : ''),
        '',
        'source layer → best target layer (test R², mean over splits)',
        ...Array.from(r.best, (b, a) => `  ${String(a).padStart(3)} → ${String(b).padStart(3)}   ${fmt(r.bestR2[a], 4)}`),
      ];
      out(lines.join('\n'));
      return 0;
    } finally {
      pool.close();
    }
  },
};
