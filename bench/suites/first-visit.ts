/**
 * What a first visit transfers (issue 20): the page, onnxruntime's wasm and the default lab model, as `npm run build`
 * writes them to dist/, raw and compressed the way a static host serves them (gzip; brotli where it can).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BenchSuite } from '../run.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
const MB = (b: number) => (b / 1e6).toFixed(2);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

function sizes(paths: string[]) {
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const p of paths) {
    const b = readFileSync(p);
    raw += b.length;
    gz += gzipSync(b, { level: 9 }).length;
    br += brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
  }
  return { raw, gz, br };
}

const suite: BenchSuite = {
  title: 'First visit: what the built site transfers',
  async run() {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
    if (!existsSync(join(DIST, 'index.html'))) throw new Error('vite build wrote no dist/index.html');
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const shell = [join(DIST, 'index.html'), ...[...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => join(DIST, m[1]))];
    const assets = files(join(DIST, 'assets'));
    const ort = files(join(DIST, 'ort'));
    const modelDir = join(DIST, 'models', 'organism-dialogue');
    const model = files(modelDir).filter((p) => !p.endsWith('model_q4.onnx') && !/model-card\.md|train_log\.json|planted\.json/.test(p));
    const rows: [string, string[]][] = [
      ['the page (index.html and what it links: the home page renders)', shell],
      ['every script and style of the app (all labs opened)', assets],
      ["onnxruntime-web's wasm build (asyncify, for WebGPU and wasm)", ort],
      ['the default model (organism-dialogue, fp32 ONNX with its config and tokenizer)', model],
    ];
    const total = [...new Set(rows.flatMap(([, p]) => p))];
    const lines = ['| what | files | raw MB | gzip MB | brotli MB |', '|---|---|---|---|---|'];
    for (const [what, p] of [...rows, ['**a first visit that runs a lab** (all of the above)', total] as [string, string[]]]) {
      const s = sizes(p);
      lines.push(`| ${what} | ${p.length} | ${MB(s.raw)} | ${MB(s.gz)} | ${MB(s.br)} |`);
    }
    const all = sizes(files(DIST));
    lines.push(
      '',
      `All of dist/ (every embedded model in both dtypes, which a visit only fetches when chosen): ${files(DIST).length} files, ${MB(all.raw)} MB raw, ${MB(all.gz)} MB gzip. Target for a first visit: ≤ 15 MB compressed.`,
    );
    return lines.join('\n');
  },
};
export default suite;
