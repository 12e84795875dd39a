import { describe, expect, it } from 'vitest';
import { errorBarSummary, fmtValue, heatmapSummary, scatterSummary, seriesSummary } from '../../src/components/figure-summary';

describe('one-line figure summaries (the text alternative under each figure)', () => {
  it('formats values to three significant digits, with an exponent only for extreme ones', () => {
    expect([fmtValue(0), fmtValue(0.123456), fmtValue(12.3456), fmtValue(-0.5), fmtValue(1234567), fmtValue(0.00001234)]).toEqual([
      '0',
      '0.123',
      '12.3',
      '-0.5',
      '1.23e+6',
      '1.23e-5',
    ]);
  });

  it('error bars: names the highest and the lowest with their errors, and counts the missing', () => {
    const s = errorBarSummary([
      { label: 'real', y: 0.12, err: 0.01 },
      { label: 'passive', y: 0.02, err: 0.004 },
      { label: 'lag3', y: null },
    ]);
    expect(s).toBe('Highest: real, 0.12 ± 0.01. Lowest: passive, 0.02 ± 0.004. 1 of 3 without a value.');
    expect(errorBarSummary([{ label: 'a', y: null }])).toBe('No values yet.');
    expect(
      errorBarSummary([
        { label: 'a', y: 2 },
        { label: 'b', y: 2 },
      ]),
    ).toBe('All 2 equal: 2.');
  });

  it('heatmap: the range and the position of the largest value, counted from the offset', () => {
    const grid = [0.1, 0.2, 0.9, 0.3, 0.4, 0.5]; // 2 rows × 3 cols; max at row 0, col 2
    expect(heatmapSummary(grid, 2, 3, { row: 'source layer', col: 'target layer', value: 'test R²' }, 1)).toBe(
      '2 × 3 grid of test R² from 0.1 to 0.9; the highest at source layer 1, target layer 3.',
    );
    expect(heatmapSummary([NaN, NaN], 1, 2, { row: 'r', col: 'c', value: 'v' })).toBe('No values yet.');
  });

  it('series: each line from its first to its last finite value', () => {
    const s = seriesSummary([{ name: 'P', x: [0, 1, 2], y: [0.5, NaN, 1.2] }], 'epoch');
    expect(s).toBe('P goes from 0.5 to 1.2 as epoch goes from 0 to 2.');
    const many = Array.from({ length: 6 }, (_, i) => ({ name: `s${i}`, x: [0], y: [i] }));
    expect(seriesSummary(many, 'x')).toMatch(/\(and 2 more series\)\.$/);
  });

  it('scatter: the count and the Pearson r (r = 1 on a line, and none for a constant)', () => {
    expect(
      scatterSummary(
        [
          { x: 1, y: 2 },
          { x: 2, y: 4 },
          { x: 3, y: 6 },
        ],
        'SyncR²',
        'score',
      ),
    ).toBe('3 points of score against SyncR²; Pearson r = 1.00.');
    expect(
      scatterSummary(
        [
          { x: 1, y: 2 },
          { x: 2, y: 2 },
          { x: 3, y: 2 },
        ],
        'x',
        'y',
      ),
    ).toBe('3 points of y against x.');
    expect(scatterSummary([], 'x', 'y')).toBe('No points yet.');
  });
});
