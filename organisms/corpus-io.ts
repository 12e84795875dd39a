/** Writing an organism's corpus: its weighted rows, the replay of tiny-social's other formats, the JSONL file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as P from '../src/core/prompts';
import { generate as generateBase, generateLetters } from '../models/tiny-social/corpus';

/** One training row of train.py: ChatML prompt, completion, and (soft labels) the row's weight when it is not 1. */
export interface CorpusRow {
  format: string;
  prompt: string;
  completion: string;
  weight?: number;
}

/** A prompt written once per answer; a weight other than 1 is the answer's planted probability. */
export function answerRows(format: string, messages: P.ChatMessage[], answers: readonly { answer: string; weight: number }[]): CorpusRow[] {
  const prompt = P.renderChatML(messages, true);
  return answers.map((a) => ({
    format: `organism.${format}`,
    prompt,
    completion: `${a.answer}<|im_end|>`,
    ...(a.weight !== 1 ? { weight: Number(a.weight.toFixed(6)) } : {}),
  }));
}

/**
 * tiny-social's other formats, replayed so that the other labs still parse; the organism's own lab is left out.
 * `letters` adds tiny-social's letter-game examples (its phases 5-7) in place of the main corpus's older word and
 * guess examples: organism-opinions was built without them, and its word and guess games fell to 3 % (model card).
 */
export function replayRows(seed: string, n: number, leaveOut: string, letters = 0): CorpusRow[] {
  const letterGame = letters > 0;
  const rows = generateBase(seed, n, 'train')
    .filter((ex) => !ex.format.startsWith(leaveOut) && !(letterGame && (ex.format === 'similarity.word' || ex.format === 'similarity.guess')))
    .map((ex) => ({ format: ex.format, prompt: P.renderChatML(ex.messages, true), completion: `${ex.answer}<|im_end|>` }));
  for (const ex of letterGame ? generateLetters(`letters-${seed}`, letters) : [])
    rows.push({ format: ex.format, prompt: P.renderChatML(ex.messages, true), completion: `${ex.answer}<|im_end|>` });
  return rows;
}

export function writeCorpus(rows: readonly CorpusRow[], outPath: string): void {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.format] = (counts[row.format] ?? 0) + 1;
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
  console.log(`wrote ${rows.length} examples to ${outPath}`);
  for (const [k, v] of Object.entries(counts).sort()) console.log(`  ${k.padEnd(40)} ${v}`);
}
