/**
 * Grammars for the structured reply formats (EBNF in XGrammar's dialect, root rule `root`), for constrained decoding:
 * a reply generated under one of these is one that the format's parser reads (test/runtime/constrained.test.ts checks
 * every one on the embedded model and the architecture stand-ins). Free-text formats (a post, a story, a line of
 * dialogue) have none: their shape is prose. The `hint` format has none either: "any word but the secret one" is
 * not something a grammar says simply.
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
  contribution: (wealth: number) => `root ::= "Reason: " [A-Za-z] [A-Za-z ,.]{0,119} "\\nContribution: " ${intRange(0, Math.max(0, Math.floor(wealth)))}`,
  demand: () => 'root ::= "0." [0-9] [0-9]? | "1"',
  number: () => `root ::= ${intRange(0, 100)}`,
  judgeJson: () => {
    const dims = JUDGE_DIMENSIONS.map((d) => {
      const [lo, hi] = JUDGE_RANGES[d];
      return `${lit(`"${d}": {"score": `)} ${intRange(lo, hi)} ${lit(', "reason": "')} ${jsonText(80)} ${lit('"}')}`;
    });
    return `root ::= "{" ${dims.join(' ", " ')} "}"`;
  },
} as const;
