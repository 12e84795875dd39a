/** seeds.ts's table of a target over run seeds: the seeds it reads, and mean ± SE and range over runs. */
import { describe, expect, it } from 'vitest';
import { seedList, summarise } from '../../organisms/dialogue/seed-table';

describe("the dialogue organism's table over run seeds", () => {
  it('reads a range or a list of seeds', () => {
    expect(seedList('1-4')).toEqual([1, 2, 3, 4]);
    expect(seedList('2,5,9')).toEqual([2, 5, 9]);
  });
  it('gives the mean, its standard error over runs and the range of each figure', () => {
    // mean 2, sample SD 1, SE 1 / sqrt(3)
    expect(summarise([{ x: 1 }, { x: 2 }, { x: 3 }])).toEqual(['x: 2.00 ± 0.58 (1.00–3.00)']);
    expect(summarise([{ x: 4 }])).toEqual(['x: 4.00 ± 0.00 (4.00–4.00)']);
  });
});
