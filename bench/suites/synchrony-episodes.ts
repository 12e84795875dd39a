import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import type { BenchSuite } from '../run.ts';
import { encodeLinkFragment } from '../../src/core/config/index.ts';
import { validateConfig } from '../../src/core/config/validate.ts';
import { synchronyLab } from '../../src/labs/synchrony/config.ts';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index.ts';

const root = resolve(import.meta.dirname, '../..');
const EPISODES = Number(process.env.BENCH_SYNC_EPISODES ?? 6);

interface Row {
  backend: string;
  /** 'full' = the lab's defaults; 'short' = 4 utterances each, 8 new tokens (SwiftShader is too slow for full). */
  config: 'full' | 'short';
  episodes: number;
  perEpisode: number;
  perTurnMs: number;
  turns: number;
}

function node(backend: 'cpu' | 'wasm'): Row {
  const out = execFileSync(process.execPath, ['--import', 'tsx', resolve(root, 'bench/synchrony-child.ts'), backend, String(EPISODES)], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const r = JSON.parse(out.trim().split('\n').pop()!);
  return {
    backend: backend === 'cpu' ? 'Node, onnxruntime-node CPU' : 'Node, onnxruntime-web wasm',
    config: 'full',
    episodes: r.episodes,
    perEpisode: r.perEpisode,
    perTurnMs: r.perTurnMs,
    turns: r.turns,
  };
}

/** The same episodes through the page (Run button to stored results), in Debian's Chromium. */
async function browser(device: 'webgpu' | 'wasm', url: string, config: 'full' | 'short'): Promise<Row> {
  const flags = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const b = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: device === 'webgpu' ? [...flags, '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-angle=swiftshader'] : flags,
  });
  try {
    const page = await b.newPage();
    const checked = validateConfig(synchronyLab, {
      seed: 1,
      scenarios: listScenarios()
        .slice(0, config === 'short' ? 2 : Math.ceil(EPISODES / 2))
        .map((s) => s.id),
      pairingsPerScenario: 1,
      ...(config === 'short' ? { maxUtterancesPerAgent: 4, maxNewTokens: 8 } : {}),
      controls: { passiveReader: true },
      runtime: { device, dtype: 'fp32' },
    });
    if (!checked.ok) throw new Error('bad config');
    await page.goto(url + encodeLinkFragment(synchronyLab, checked.value));
    // the clock starts at the first stored episode, so model loading and warm-up are not counted
    await page.getByRole('button', { name: /^Run \(/ }).click();
    await page.waitForFunction(
      () => /^[1-9]/.test(document.querySelector('[data-run-status] [role=progressbar]')?.getAttribute('aria-label') ?? ''),
      undefined,
      { timeout: 600_000 },
    );
    const t1 = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-run-status]')?.getAttribute('data-run-status') === 'done', undefined, {
      timeout: 1_800_000,
    });
    const seconds = (Date.now() - t1) / 1000;
    const episodes = checked.value.scenarios.length * 2;
    const turns = await page.evaluate(async () => {
      const hook = (window as unknown as { __socialMindsLab: { runController: { episodes: { records: { kind: string }[] }[] } } }).__socialMindsLab;
      return hook.runController.episodes.slice(1).reduce((n, e) => n + e.records.filter((r) => r.kind === 'turn').length, 0);
    });
    return {
      backend: `Chromium, ${device === 'webgpu' ? 'WebGPU (SwiftShader, software)' : 'wasm'}`,
      config,
      episodes: episodes - 1,
      perEpisode: seconds / (episodes - 1),
      perTurnMs: (1000 * seconds) / turns,
      turns,
    };
  } finally {
    await b.close();
  }
}

const suite: BenchSuite = {
  title: 'Synchrony episodes (embedded model)',
  async run() {
    const rows: Row[] = [node('cpu'), node('wasm')];
    const notes: string[] = [];
    if (existsSync(resolve(root, 'dist/index.html')) && existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
      const server = await preview({ root, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
      const address = server.httpServer.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
      try {
        rows.push(await browser('wasm', url, 'full'));
        rows.push(await browser('wasm', url, 'short'));
        rows.push(await browser('webgpu', url, 'short'));
      } finally {
        await new Promise<void>((done) => server.httpServer.close(() => done()));
      }
    } else notes.push('The browser rows need `npm run build` and /usr/bin/chromium first.');
    const f = (x: number, d = 1) => x.toFixed(d);
    return [
      `tiny-social fp32, passive-reader re-encoding on, both speaking orders. *full*: the lab's defaults (${EPISODES} episodes of the first ${Math.ceil(EPISODES / 2)} library scenarios, up to 8 utterances each, ≤ 48 new tokens per turn). *short*: 4 episodes, up to 4 utterances each, ≤ 8 new tokens (SwiftShader, a software GPU, takes seconds per forward pass, so a full episode would take tens of minutes there; it says nothing about a real GPU). Node rows time the whole headless run; browser rows time the run from the first stored episode to the last (model loading and the first episode excluded), through the page's Run button.`,
      '',
      '| backend | config | episodes timed | s / episode | ms / turn | turns |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.backend} | ${r.config} | ${r.episodes} | ${f(r.perEpisode, 2)} | ${f(r.perTurnMs, 0)} | ${r.turns} |`),
      '',
      ...notes,
    ].join('\n');
  },
};

export default suite;
