/**
 * Grammars for the structured reply formats (EBNF in XGrammar's dialect, root rule `root`), for constrained decoding:
 * a reply generated under one of these is one that the format's parser reads (test/runtime/constrained.test.ts checks
 * every one on the embedded model and the architecture stand-ins). Free-text formats (a post, a story, a line of
 * dialogue) have none: their shape is prose.
 */
import { JUDGE_DIMENSIONS, JUDGE_RANGES } from './synchrony';

/** A string literal of the grammar (JSON's escaping is the grammar's: \" \\ \n). */
const lit = (s: string) => JSON.stringify(s);

/** Every whole number from lo to hi, as alternatives. */
function intRange(lo: number, hi: number): string {
  const alts: string[] = [];
  for (let v = lo; v <= hi; v++) alts.push(lit(String(v)));
  return `(${alts.join(' | ')})`;
}

/**
 * Text for inside a JSON string: no quote, backslash or line break, 1 to `max` characters, and not blank (the parsers
 * refuse an empty reason, and "   " is one once trimmed): it starts with a character that is not a space.
 */
const jsonText = (max: number) => `[^"\\\\\\n\\r\\t ] [^"\\\\\\n]{0,${max - 1}}`;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const HINT_LENGTH = { min: 2, max: 15 } as const;

/**
 * One lowercase word of 2 to 15 letters that is none of `forbidden`: a trie of the forbidden words, where each node
 * may end the word (unless it is a forbidden word) or go on with a letter; a letter that leaves the trie leads to any
 * letters up to the length limit. Words with other characters cannot be generated, so they need no exclusion.
 */
function wordExcept(forbidden: readonly string[]): string {
  const words = [...new Set(forbidden.filter((w) => /^[a-z]+$/.test(w) && w.length <= HINT_LENGTH.max))];
  const rules: string[] = [];
  const tail = (depth: number) => {
    const min = Math.max(0, HINT_LENGTH.min - depth);
    const max = HINT_LENGTH.max - depth;
    return max <= 0 ? '""' : `[a-z]{${min},${max}}`;
  };
  const node = (prefix: string): string => {
    const name = prefix ? `p_${prefix}` : 'start';
    const depth = prefix.length;
    const alts: string[] = [];
    if (depth >= HINT_LENGTH.min && !words.includes(prefix)) alts.push('""');
    if (depth < HINT_LENGTH.max) {
      const next = [...new Set(words.filter((w) => w.length > depth && w.startsWith(prefix)).map((w) => w[depth]))];
      for (const c of next) alts.push(`"${c}" ${node(prefix + c)}`);
      const others = [...LETTERS].filter((c) => !next.includes(c)).join('');
      if (others) alts.push(`[${others}] ${tail(depth + 1)}`);
    }
    rules.push(`${name} ::= ${alts.join(' | ')}`);
    return name;
  };
  const root = node('');
  return [`root ::= ${root}`, ...rules].join('\n');
}

/** What the hint parser refuses for a secret word: the word, its plurals, and the word it is a plural of. */
function hintForbidden(word: string): string[] {
  const s = word.toLowerCase();
  const out = [s, `${s}s`, `${s}es`];
  if (s.endsWith('s')) out.push(s.slice(0, -1));
  if (s.endsWith('es')) out.push(s.slice(0, -2));
  return out;
}

export const GRAMMARS = {
  voteSubjective: () => 'root ::= "Agree" | "Disagree"',
  voteObjective: () => 'root ::= "A" | "B"',
  yesNo: () => 'root ::= "Yes" | "No"',
  stanceJson: () => `root ::= ${lit('{"stance": ')} ${intRange(-2, 2)} ${lit(', "reasons": "')} ${jsonText(120)} ${lit('"}')}`,
  /** One word that starts with `letter` (any letter when absent). */
  word: (letter?: string) => {
    const first = letter && /^[a-z]$/i.test(letter) ? `[${letter.toUpperCase()}${letter.toLowerCase()}]` : '[A-Za-z]';
    return `root ::= ${first} [a-z]{2,14}`;
  },
  /** A one-word hint that the hint parser accepts for the secret `word`: any lowercase word but it and its plurals. */
  hint: (word?: string) => wordExcept(word ? hintForbidden(word) : []),
  contribution: (wealth: number) => `root ::= "Reason: " [A-Za-z] [A-Za-z ,.]{0,119} "\\nContribution: " ${intRange(0, Math.max(0, Math.floor(wealth)))}`,
  demand: () => 'root ::= "0." [0-9] [0-9]? | "1"',
  number: () => `root ::= ${intRange(0, 100)}`,
  judgeJson: () => {
    const dims = JUDGE_DIMENSIONS.map((d) => {
      const [lo, hi] = JUDGE_RANGES[d];
      return `${lit(`"${d}": {"score": `)} ${intRange(lo, hi)} ${lit(', "reason": "')} ${jsonText(JUDGE_REASON_MAX)} ${lit('"}')}`;
    });
    return `root ::= "{" ${dims.join(' ", " ')} "}"`;
  },
} as const;

const JUDGE_REASON_MAX = 80;
const digits = (lo: number, hi: number) => Math.max(String(lo).length, String(hi).length);

/**
 * The longest reply each grammar admits, in characters: a constrained reply ends where its grammar does, so a token
 * budget of this many (plus one for the end) covers it even when a model spells it one character a token. Declared
 * beside the grammars, with the same arguments; test/runtime/constrained.test.ts generates under exactly this budget.
 */
export const GRAMMAR_MAX_CHARS: { [K in keyof typeof GRAMMARS]: (...args: Parameters<(typeof GRAMMARS)[K]>) => number } = {
  voteSubjective: () => 'Disagree'.length,
  voteObjective: () => 1,
  yesNo: () => 'Yes'.length,
  stanceJson: () => '{"stance": '.length + 2 + ', "reasons": "'.length + 120 + '"}'.length,
  word: () => 15,
  hint: () => HINT_LENGTH.max,
  contribution: (wealth: number) => 'Reason: '.length + 120 + '\nContribution: '.length + String(Math.max(0, Math.floor(wealth))).length,
  demand: () => '0.99'.length,
  number: () => '100'.length,
  judgeJson: () =>
    2 +
    ', '.length * (JUDGE_DIMENSIONS.length - 1) +
    JUDGE_DIMENSIONS.reduce(
      (n, d) => n + `"${d}": {"score": `.length + digits(...JUDGE_RANGES[d]) + ', "reason": "'.length + JUDGE_REASON_MAX + '"}'.length,
      0,
    ),
};
