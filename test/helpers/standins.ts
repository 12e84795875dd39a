/**
 * The architecture stand-ins (test/fixtures/make_arch_standins.py): tiny random-weight models of each registry
 * family, with what transformers computed for them. Tests load them from a temporary folder that adds
 * models/tiny-social's tokenizer, whose vocabulary size they share.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const STANDIN_FIXTURES = resolve(import.meta.dirname, '../fixtures/standins');
export const STANDIN_ARCHS = ['llama', 'qwen2', 'qwen3', 'gemma3'] as const;
export type StandinArch = (typeof STANDIN_ARCHS)[number];

export interface StandinExpected {
  model_type: string;
  prompts: { text: string; ids: number[]; hidden: number[][]; residual: number[]; greedy: number[] }[];
}

export const readExpected = (arch: StandinArch): StandinExpected =>
  JSON.parse(readFileSync(join(STANDIN_FIXTURES, arch, 'expected.json'), 'utf8')) as StandinExpected;

/** Each stand-in as a loadable model folder (its files and tiny-social's tokenizer), in a temporary folder. */
export function standinFolders(): { dir: (arch: StandinArch) => string; cleanup: () => void } {
  const work = mkdtempSync(join(tmpdir(), 'sml-standins-'));
  const tokenizer = resolve(import.meta.dirname, '../../models/tiny-social');
  for (const arch of STANDIN_ARCHS) {
    cpSync(join(STANDIN_FIXTURES, arch), join(work, arch), { recursive: true });
    for (const f of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) cpSync(join(tokenizer, f), join(work, arch, f));
  }
  return { dir: (arch) => join(work, arch), cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

/** ‖a − b‖ / ‖b‖ over one row. */
export function relativeError(a: ArrayLike<number>, b: readonly number[]): number {
  let d = 0;
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    d += (a[i] - b[i]) ** 2;
    n += b[i] ** 2;
  }
  return Math.sqrt(d / n);
}

/**
 * Per-layer relative errors of one prompt's states (rows of `data` starting at `offset`) against transformers: rows
 * 0..L−1 against its hidden states, row L against the residual before the final norm (the lab's last row).
 */
export function layerErrors(data: Float32Array, offset: number, H: number, p: StandinExpected['prompts'][number]): number[] {
  const L = p.hidden.length - 1;
  return p.hidden.map((h, k) => relativeError(data.subarray(offset + k * H, offset + (k + 1) * H), k < L ? h : p.residual));
}
