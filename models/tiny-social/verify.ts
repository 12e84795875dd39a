/**
 * Checks the built embedded model end to end in Node (run by build.sh, `npx tsx models/tiny-social/verify.ts`):
 *  1. onnxruntime-node on debug copies with the residual stream exposed (work/model*_taps.onnx): hidden states
 *     at the last token against the PyTorch fixture (fp32 within 1e-5, q4 within the fixture's tolerance);
 *  2. transformers.js: the chat template and tokenizer reproduce the fixture's token ids, and greedy generation
 *     reproduces the fixture's continuations (fp32).
 * Exits non-zero on failure.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { AutoModelForCausalLM, AutoTokenizer, Tensor, env } from '@huggingface/transformers';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const fixturePath = process.argv[2] ?? join(root, 'models/tiny-social/reference.json');
/** Model folder (transformers.js layout); default models/tiny-social. */
const modelDir = resolve(process.argv[3] ?? here);
const workDir = resolve(process.argv[4] ?? join(here, 'work'));

interface Case {
  kind: 'chat' | 'plain';
  messages: { role: string; content: string }[] | null;
  text: string;
  input_ids: number[];
  hidden_last_token: number[][];
  greedy_continuation: number[];
}
const fx = JSON.parse(readFileSync(fixturePath, 'utf8')) as {
  tolerances: { fp32: { hidden_max_abs: number }; q4: { hidden_max_abs: number } };
  cases: Case[];
};
const cfg = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8'));
let failed = false;
const check = (cond: boolean, msg: string): void => {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${msg}`);
  if (!cond) failed = true;
};

async function hiddenCheck(file: string, tol: number, label: string): Promise<void> {
  const sess = await ort.InferenceSession.create(file);
  const L = cfg.num_hidden_layers as number;
  let worst = 0;
  for (const c of fx.cases) {
    const n = c.input_ids.length;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(c.input_ids.map(BigInt)), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(c.input_ids.map((_, i) => BigInt(i))), [1, n]),
    };
    for (let i = 0; i < L; i++) {
      for (const k of ['key', 'value']) {
        feeds[`past_key_values.${i}.${k}`] = new ort.Tensor('float32', new Float32Array(0), [
          1, cfg.num_key_value_heads, 0, cfg.head_dim,
        ]);
      }
    }
    const out = await sess.run(feeds);
    const names = ['/model/embed_tokens/Gather_output_0', ...Array.from({ length: L }, (_, i) => `/model/layers.${i}/Add_1_output_0`)];
    names.forEach((name, r) => {
      const t = out[name];
      const H = t.dims[2];
      const data = t.data as Float32Array;
      for (let h = 0; h < H; h++) {
        worst = Math.max(worst, Math.abs(data[(n - 1) * H + h] - c.hidden_last_token[r][h]));
      }
    });
  }
  check(worst <= tol, `${label}: hidden states max |onnx - torch| = ${worst.toExponential(2)} (tolerance ${tol})`);
}

async function main(): Promise<void> {
  await hiddenCheck(join(workDir, 'model_taps.onnx'), fx.tolerances.fp32.hidden_max_abs, 'fp32');
  await hiddenCheck(join(workDir, 'model_q4_taps.onnx'), fx.tolerances.q4.hidden_max_abs, 'q4');

  env.localModelPath = dirname(modelDir) + '/';
  const modelId = basename(modelDir);
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  const tok = await AutoTokenizer.from_pretrained(modelId);
  for (const c of fx.cases) {
    const ids =
      c.kind === 'chat'
        ? (tok.apply_chat_template(c.messages as never, { add_generation_prompt: true, tokenize: true, return_tensor: false }) as unknown as {
            input_ids: number[];
          }).input_ids
        : (tok.encode(c.text) as number[]);
    check(JSON.stringify(ids) === JSON.stringify(c.input_ids), `tokenizer (${c.kind}): ids match the fixture`);
  }
  for (const dtype of ['fp32', 'q4'] as const) {
    const model = await AutoModelForCausalLM.from_pretrained(modelId, { dtype, device: 'cpu' });
    let same = 0;
    for (const c of fx.cases) {
      const n = c.input_ids.length;
      const input_ids = new Tensor('int64', BigInt64Array.from(c.input_ids.map(BigInt)), [1, n]);
      const attention_mask = new Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]);
      const out = (await model.generate({ input_ids, attention_mask, max_new_tokens: 20, do_sample: false } as never)) as {
        tolist(): bigint[][];
      };
      const cont = out.tolist()[0].slice(n).map(Number);
      if (JSON.stringify(cont) === JSON.stringify(c.greedy_continuation)) same++;
      else console.log(`  ${dtype} greedy differs: ${JSON.stringify(cont)} vs ${JSON.stringify(c.greedy_continuation)}`);
    }
    if (dtype === 'fp32') check(same === fx.cases.length, `transformers.js fp32 greedy continuations match (${same}/${fx.cases.length})`);
    else console.log(`info q4 greedy continuations equal to fp32 reference: ${same}/${fx.cases.length}`);
    await model.dispose();
  }
  if (failed) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
