/**
 * Parse-rate measurement for the embedded model tiny-social:
 *   npx tsx models/tiny-social/parse-rate.ts [--n 30] [--dtype fp32] [--seed 7] [--model tiny-social] [--doc docs/embedded-model.md]
 * (--model organism-opinions measures a model organism's formats into its model card)
 * Loads the committed model through @huggingface/transformers in Node (onnxruntime-node, CPU, local files only),
 * generates answers for fresh prompts built from the held-out pools (split "test", never used in training), with
 * sampling (temperature 0.7, seeded) and greedy, parses them with src/core/prompts and writes the table into
 * docs/embedded-model.md (between the parse-rate markers), and the raw outputs to models/tiny-social/work/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoModelForCausalLM, AutoTokenizer, env, random } from '@huggingface/transformers';
import { createRng } from '../../src/core/rng';
import { FORMATS } from './corpus';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const arg = (k: string, d: string): string => {
  const i = args.indexOf(k);
  return i >= 0 && args[i + 1] ? args[i + 1] : d;
};
const N = Number(arg('--n', '30'));
const dtype = arg('--dtype', 'fp32') as 'fp32' | 'q4';
const seed = arg('--seed', '7');
const only = arg('--only', '');
const modelId = arg('--model', 'tiny-social');
// Each model's own page by default: a run on an organism must not overwrite tiny-social's table.
const docFile = arg('--doc', modelId === 'tiny-social' ? 'docs/embedded-model.md' : `models/${modelId}/model-card.md`);

const MAX_NEW: Record<string, number> = {
  'synchrony.turn': 60, 'synchrony.judge': 230, 'opinions.message.subjective': 50, 'opinions.message.objective': 50,
  'similarity.public_goods': 50, 'similarity.brainstorm': 60, 'similarity.final.story': 130, 'similarity.final.biography': 110,
  'similarity.final.haiku': 40, 'similarity.final.vacation': 40, 'polarization.update': 60, 'polarization.persuade': 120,
  'polarization.post': 120,
};

interface Row {
  format: string;
  n: number;
  sampled: number;
  greedy: number;
  example: string;
  failure: string;
}

async function main(): Promise<void> {
  env.localModelPath = join(root, 'models') + '/';
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  const tok = await AutoTokenizer.from_pretrained(modelId);
  const model = await AutoModelForCausalLM.from_pretrained(modelId, { dtype, device: 'cpu' });
  const rng = createRng(`parse-rate-${seed}`);
  // Seeded sampling for reproducible tables. transformers.js 4.x samples with its own generator (`random`, seeded
  // from OS entropy unless seeded), no longer with Math.random: seed both.
  const sampler = createRng(`parse-rate-sampling-${seed}`);
  random.seed(Math.floor(sampler.next() * 2 ** 32));
  Math.random = () => sampler.next();
  const rows: Row[] = [];
  const raw: unknown[] = [];
  const t0 = Date.now();
  for (const f of FORMATS) {
    if (only && !f.name.startsWith(only)) continue;
    const row: Row = { format: f.name, n: N, sampled: 0, greedy: 0, example: '', failure: '' };
    for (let i = 0; i < N; i++) {
      const ex = f.make(rng, 'test');
      const inputs = tok.apply_chat_template(ex.messages as never, { add_generation_prompt: true, return_dict: true }) as never as {
        input_ids: { dims: number[] };
      };
      const n = inputs.input_ids.dims[1];
      for (const mode of ['sampled', 'greedy'] as const) {
        const out = (await model.generate({
          ...(inputs as object),
          max_new_tokens: MAX_NEW[f.name] ?? 16,
          do_sample: mode === 'sampled',
          temperature: 0.7,
          top_k: 0,
        } as never)) as { tolist(): bigint[][] };
        const ids = out.tolist()[0].slice(n).map(Number);
        const text = tok.decode(ids, { skip_special_tokens: true });
        const p = ex.parse(text);
        if (p.ok) row[mode]++;
        else if (!row.failure) row.failure = `${p.reason}: ${JSON.stringify(text.slice(0, 80))}`;
        if (mode === 'sampled' && p.ok && !row.example) row.example = text;
        raw.push({ format: f.name, mode, prompt: ex.messages, output: text, ok: p.ok, reason: p.ok ? null : p.reason });
      }
    }
    rows.push(row);
    console.log(`${f.name.padEnd(32)} sampled ${row.sampled}/${N}  greedy ${row.greedy}/${N}  ${row.failure}`);
  }
  const secs = (Date.now() - t0) / 1000;
  mkdirSync(join(here, 'work'), { recursive: true });
  writeFileSync(join(here, `work/parse-rate-${modelId}-${dtype}.json`), JSON.stringify(raw, null, 1));
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' / ').slice(0, 110);
  const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(0)}%`;
  const totalS = rows.reduce((s, r) => s + r.sampled, 0);
  const totalG = rows.reduce((s, r) => s + r.greedy, 0);
  const totalN = rows.reduce((s, r) => s + r.n, 0);
  const table = [
    `Measured with \`npx tsx models/tiny-social/parse-rate.ts --n ${N} --dtype ${dtype} --seed ${seed}${modelId === 'tiny-social' ? '' : ` --model ${modelId}`}\` (transformers.js, onnxruntime-node CPU, ${dtype}; ` +
      `held-out prompts; sampling at temperature 0.7 without top-k, seeded; ${secs.toFixed(0)} s).`,
    '',
    '| format | n | parsed (sampled) | parsed (greedy) | example (sampled) |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.format} | ${r.n} | ${pct(r.sampled, r.n)} | ${pct(r.greedy, r.n)} | ${esc(r.example)} |`),
    `| **all** | ${totalN} | ${pct(totalS, totalN)} | ${pct(totalG, totalN)} | |`,
  ].join('\n');
  const docPath = join(root, docFile);
  const start = `<!-- parse-rate:${dtype}:start -->`;
  const end = `<!-- parse-rate:${dtype}:end -->`;
  let doc = '';
  try {
    doc = readFileSync(docPath, 'utf8');
  } catch {
    doc = '';
  }
  const block = `${start}\n${table}\n${end}`;
  if (!only) {
    if (doc.includes(start) && doc.includes(end)) doc = doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length);
    else doc += `\n${block}\n`;
    writeFileSync(docPath, doc);
  }
  console.log(table);
  await model.dispose();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
