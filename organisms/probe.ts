/**
 * Looks at a half-trained organism: runs an organism's measurement (its measure.ts) with the log-probabilities of a
 * training checkpoint (organisms/probe.py), without exporting it. Two passes over the same seeded measurement: the
 * first records what it scores, Python scores it all at once, the second replays the scores.
 *
 *   npx tsx organisms/probe.ts --organism polarization --ckpt organisms/work/polarization/train_state_phase1.pt [--n 60]
 *   npx tsx organisms/probe.ts --organism dialogue [--n 60] [--judges 4]     (greedy replies instead of scores)
 *   npx tsx organisms/probe.ts --organism drills --ckpt … [--n 40]          (held-out copy drills, greedy)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { option } from './args';
import { measurePolarization } from './polarization/measure';
import { measureLaw } from './opinions/measure';
import { probeDrills, probeTurns } from './dialogue/measure';
import { renderChatML, type ChatMessage } from '../src/core/prompts';

interface Scorer {
  scoreText(context: string, text: string): Promise<{ total: number }>;
  generate(o: { messages: ChatMessage[]; maxNewTokens?: number }): Promise<{ text: string }>;
}

const organism = option('--organism', 'polarization');
const ckpt = resolve(option('--ckpt', `organisms/work/${organism === 'drills' ? 'dialogue' : organism}/train_state_phase1.pt`));
const n = Number(option('--n', '60'));
const measure = (s: Scorer) =>
  organism === 'drills'
    ? probeDrills(s, n, 'probe')
    : organism === 'opinions'
      ? measureLaw(s, n, 'probe')
      : organism === 'dialogue'
        ? probeTurns(s, n, Number(option('--judges', '4')), 'probe')
        : measurePolarization(s, n, 'probe');

const asked: ({ context: string; text: string } | { context: string; generate: number })[] = [];
await measure({
  scoreText: async (context, text) => (asked.push({ context, text }), { total: 0 }),
  generate: async (o) => (asked.push({ context: renderChatML(o.messages, true), generate: o.maxNewTokens ?? 64 }), { text: '' }),
});
const dir = mkdtempSync(join(tmpdir(), 'organism-probe-'));
writeFileSync(join(dir, 'in.json'), JSON.stringify(asked));
execFileSync(
  '/usr/bin/python3',
  [resolve(import.meta.dirname, 'probe.py'), ckpt, resolve('models/tiny-social/tokenizer.json'), join(dir, 'in.json'), join(dir, 'out.json')],
  { stdio: 'inherit' },
);
const scores: (number | string)[] = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
let i = 0;
const m = await measure({ scoreText: async () => ({ total: Number(scores[i++]) }), generate: async () => ({ text: String(scores[i++]) }) });
console.log(JSON.stringify(m, (k, v) => (k === 'probes' && Array.isArray(v) ? v.length : v), 1));
