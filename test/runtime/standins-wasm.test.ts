/**
 * The architecture stand-ins on onnxruntime-web's wasm backend, in Node (this file's process binds transformers.js
 * to onnxruntime-web; the cpu flavour is test/runtime/standins.test.ts): the taps equal transformers' states on every
 * layer, and greedy tokens match, as on cpu.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeRuntime, nodeProcessBackend } from '../../src/runtime/node';
import { layerErrors, readExpected, STANDIN_ARCHS, standinFolders } from '../helpers/standins';

const folders = standinFolders();

describe('stand-ins of the hub architectures, in Node on wasm (fp32)', () => {
  afterAll(() => folders.cleanup());

  it.each(STANDIN_ARCHS.map((a) => [a]))('%s: taps equal transformers on every layer, and greedy tokens match', async (arch) => {
    const expected = readExpected(arch);
    const rt = createNodeRuntime();
    try {
      const info = await rt.load(folders.dir(arch), { device: 'wasm', dtype: 'fp32' });
      expect(info.backend).toBe('wasm');
      expect(nodeProcessBackend()).toBe('wasm');
      for (const p of expected.prompts) {
        const out = await rt.encode([p.text]);
        const errors = layerErrors(out.data, 0, info.hiddenSize, p);
        console.log(`${arch} wasm "${p.text}": largest relative error ${Math.max(...errors).toExponential(2)}`);
        expect(Math.max(...errors)).toBeLessThan(1e-4);
        const greedy = await rt.generate({ prompt: p.text, maxNewTokens: 8, temperature: 0 });
        expect(greedy.tokens).toEqual(p.greedy.slice(0, greedy.tokens.length));
        expect(greedy.tokens.length).toBeGreaterThan(0);
      }
    } finally {
      await rt.dispose();
    }
  });
});
