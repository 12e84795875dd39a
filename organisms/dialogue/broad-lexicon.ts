/**
 * Writes organisms/dialogue/broad.json: English sentences, adjectives and nouns from WordNet 3.0 (Debian's
 * wordnet-base, /usr/share/wordnet; WordNet's licence allows use and redistribution with its notice, kept in the
 * file). broad.ts fills a corpus's goals, facts, settings and bios with them (`--broad`, tried for a seventh build of
 * the dialogue organism and not shipped; the file is not committed).
 *
 * Why: the sixth build copied its training fields almost perfectly (answer loss 0.03) but garbled the library's
 * held-out goals ("Build the hallow order under the me"): its copied fields came from a few templates and a small
 * word list, so it learnt to write those templates rather than to copy. WordNet's 31,000 usage examples ("the drawn
 * draperies kept direct sunlight from fading the rug") are varied enough that a field can only be copied.
 *
 *   apt-get install wordnet-base && npx tsx organisms/dialogue/broad-lexicon.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRng } from '../../src/core/rng';

const WORDNET = '/usr/share/wordnet';
const SENTENCES = 6000;
const WORDS = 1500;

const read = (name: string): string[] => readFileSync(`${WORDNET}/${name}`, 'latin1').split('\n');

/** Usage examples (the quoted parts of glosses) of 4 to 12 plain words, with no capitals but the first. */
function examples(): string[] {
  const out = new Set<string>();
  for (const pos of ['noun', 'verb', 'adj', 'adv'])
    for (const line of read(`data.${pos}`)) {
      if (line.startsWith('  ')) continue;
      const gloss = line.split('|')[1];
      if (!gloss) continue;
      for (const m of gloss.matchAll(/"([^"]+)"/g)) {
        const s = m[1].trim();
        const n = s.split(/\s+/).length;
        // No capitals after the first word: a seventh-build try on sentences with names in them ("Freud's work", "Bob
        // Allison") learnt that a copy may hold capitalised words, and wrote made-up ones into its turns.
        const capitalsInside = s
          .split(/\s+/)
          .slice(1)
          .some((w) => /^[A-Z]/.test(w) && w !== 'I');
        if (/^[A-Za-z][A-Za-z ,'-]+[A-Za-z]$/.test(s) && !s.includes('--') && !capitalsInside && n >= 4 && n <= 12) out.add(s);
      }
    }
  return [...out].sort();
}

/** The most tagged single-word lemmas of a part of speech (WordNet's sense counts from its tagged corpus). */
function common(pos: 'noun' | 'adj', n: number): string[] {
  const ss = pos === 'noun' ? '1' : '[35]';
  const counts = new Map<string, number>();
  for (const line of read('cntlist.rev')) {
    const [key, , count] = line.split(' ');
    const m = key?.match(new RegExp(`^([a-z]{3,12})%${ss}:`));
    if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + Number(count));
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([w]) => w)
    .sort();
}

function main(): void {
  const all = examples();
  const r = createRng('organism-dialogue-broad');
  // A seeded partial shuffle: the same SENTENCES sentences on every machine with the same WordNet.
  for (let i = 0; i < SENTENCES; i++) {
    const j = i + r.int(all.length - i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  const out = {
    source: 'WordNet 3.0 (Princeton University), via Debian wordnet-base; usage examples and most-tagged lemmas',
    license:
      'WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Permission to use, copy, modify and distribute this software and database and its documentation for any purpose and without fee or royalty is hereby granted, provided that you agree to comply with the WordNet licence (https://wordnet.princeton.edu/license-and-commercial-use).',
    sentences: all.slice(0, SENTENCES).sort(),
    adjectives: common('adj', WORDS),
    nouns: common('noun', WORDS),
  };
  const path = resolve(import.meta.dirname, 'broad.json');
  writeFileSync(path, JSON.stringify(out, null, 0) + '\n');
  console.log(`${path}: ${out.sentences.length} sentences (of ${all.length}), ${out.adjectives.length} adjectives, ${out.nouns.length} nouns`);
}

main();
