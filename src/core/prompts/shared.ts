/**
 * Shared pieces of the lab prompt formats: chat messages, parse results, and tolerant-but-strict extraction helpers.
 * Pure TypeScript (no DOM): used by the labs, the CLI and the embedded model's corpus generator.
 */
import JSON5 from 'json5';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export function ok<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: string): ParseResult<T> {
  return { ok: false, reason };
}

/** One user message: every lab format is a single user turn (compact for small-context models). */
export function userPrompt(content: string): ChatMessage[] {
  return [{ role: 'user', content }];
}

/** Appends a new prompt to an earlier chat history (games where each model keeps its own history). */
export function withHistory(history: readonly ChatMessage[], next: readonly ChatMessage[]): ChatMessage[] {
  return [...history, ...next];
}

/**
 * ChatML rendering, identical to the embedded model's tokenizer chat_template:
 * `<|im_start|>{role}\n{content}<|im_end|>\n` per message, then `<|im_start|>assistant\n` when asked.
 */
export function renderChatML(messages: readonly ChatMessage[], addGenerationPrompt = true): string {
  let s = '';
  for (const m of messages) s += `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`;
  if (addGenerationPrompt) s += '<|im_start|>assistant\n';
  return s;
}

/** First non-empty line, trimmed. */
export function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t) return t;
  }
  return '';
}

/** Strips one pair of matching surrounding quotes, markdown emphasis and code ticks. */
export function unquote(s: string): string {
  let t = s.trim();
  t = t
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .replace(/^\*(.*)\*$/, '$1')
    .replace(/^`(.*)`$/, '$1')
    .trim();
  const pairs: [string, string][] = [
    ['"', '"'],
    ["'", "'"],
    ['\u201c', '\u201d'],
    ['\u2018', '\u2019'],
  ];
  for (const [a, b] of pairs) {
    if (t.length >= 2 && t.startsWith(a) && t.endsWith(b)) return t.slice(a.length, t.length - b.length).trim();
  }
  return t;
}

/** Words of a text (letters, digits, apostrophes and hyphens inside words). */
export function words(text: string): string[] {
  return text.match(/[A-Za-z0-9\u00C0-\u024F]+(?:['\u2019-][A-Za-z0-9\u00C0-\u024F]+)*/g) ?? [];
}

export function wordCount(text: string): number {
  return words(text).length;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading replies. The lab's formats were tuned on the embedded model, which answers in them exactly; the hub's small
// instruct models (SmolLM2, Qwen2.5, Qwen3, Llama 3.2, Gemma 3) wrap the same answers in thinking, courtesy,
// markdown and explanations. These helpers remove what a careful reader skips, and nothing that could change the
// answer; the format parsers then refuse what such a reader would call ambiguous (docs/formats.md, "Reply formats").

/** Tokens after which a model's turn is over: the rest is a hallucinated next turn. */
const END_OF_TURN = /<\|im_end\|>|<\|eot_id\|>|<end_of_turn>|<\|endoftext\|>|<\|end_of_text\|>|<\|end\|>|<\/s>/;
/** Other chat control tokens a model may echo (a role name right after a start token goes with it). */
const CONTROL =
  /<\|im_start\|>(?:assistant|user|system)?\n?|<start_of_turn>(?:model|user)?\n?|<\|start_header_id\|>\w*<\|end_header_id\|>\n?|<\|begin_of_text\|>|<bos>|<s>/g;
const THINK_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const THINK_OPEN = /<(?:think|thinking|reasoning)>/i;
const THINK_CLOSE = /<\/(?:think|thinking|reasoning)>/gi;

/** Control tokens removed, the reply cut at the end of its turn, line endings normalised (thinking kept). */
function withoutControl(raw: string): string {
  let t = raw.replace(/\r\n?/g, '\n');
  const end = t.search(END_OF_TURN);
  if (end >= 0) t = t.slice(0, end);
  return t.replace(CONTROL, '');
}

/**
 * Removes reasoning blocks: `<think>…</think>` (also `<thinking>`, `<reasoning>`), and everything before a closing
 * tag whose opening tag the chat template wrote. A block that never closes leaves no answer: null, unless an answer
 * came before it.
 */
export function stripThinking(text: string): string | null {
  let t = text.replace(THINK_BLOCK, '');
  let lastClose = -1;
  for (const m of t.matchAll(THINK_CLOSE)) lastClose = m.index + m[0].length;
  if (lastClose >= 0) t = t.slice(lastClose);
  const open = t.search(THINK_OPEN);
  if (open >= 0) {
    const before = t.slice(0, open).trim();
    return before ? before : null;
  }
  return t;
}

/** Removes chat control tokens and reasoning blocks a model may emit, and normalises line endings. */
export function cleanReply(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return (stripThinking(withoutControl(raw)) ?? '').trim();
}

/** The reply as text to read (cleanReply), or why there is none: empty, or thinking that never reached an answer. */
export function replyText(raw: unknown): ParseResult<string> {
  if (typeof raw !== 'string') return fail('empty reply');
  const t = stripThinking(withoutControl(raw));
  if (t === null) return fail('unfinished <think> block: no answer after it');
  const s = t.trim();
  return s ? ok(s) : fail('empty reply');
}

/** Typographic quotes and apostrophes as ASCII, non-breaking spaces as spaces (for matching, not for kept text). */
export function plainQuotes(s: string): string {
  return s
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * Markdown a model wraps an answer in: code-fence lines dropped; heading and quote marks, bold, italics around
 * words and inline-code ticks removed. List bullets ("- ", "* ", "1.") stay.
 */
export function stripMarkdown(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*(?:```|~~~)[\w+-]*\s*$/.test(l))
    .map((l) =>
      l
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*>\s?/, '')
        .replace(/\*\*|__/g, '')
        .replace(/(^|[\s("'])[*_](?=[^\s*_])/g, '$1')
        .replace(/(?<=[^\s*_])[*_](?=$|[\s)"'.,!?:;])/g, '')
        .replace(/`/g, ''),
    )
    .join('\n');
}

/** Non-empty lines, trimmed, after stripMarkdown. */
export function contentLines(text: string): string[] {
  return stripMarkdown(text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

const COURTESY =
  /^(?:sure(?:\s+thing)?|okay|ok|alright|all\s+right|of\s+course|certainly|absolutely|great(?:\s+question)?|good\s+question|got\s+it|understood|no\s+problem|no\s+worries|fine|well|hmm+|hm+|so|right|gladly|happy\s+to\s+help|thanks|thank\s+you)\s*[!.,:;\u2014\u2013-]+\s*/i;
const HERE_IS = /^here(?:'s|\s+is|\s+are|\s+you\s+go|\s+it\s+is)\b[^:\n]{0,80}:\s*/i;
const ANSWER_LABEL =
  /^(?:(?:my|the)\s+)?(?:final\s+|correct\s+|right\s+|one-word\s+|short\s+)?(?:answer|response|reply|vote|choice|decision)(?:\s+(?:is|would\s+be|will\s+be)\s*:?|\s*[:=\u2014\u2013-])\s*/i;

/** Courtesy ("Sure!", "Okay,"), "Here's my answer:" and answer labels ("My answer:", "The answer is") at the start. */
export function stripPreamble(line: string): string {
  let t = plainQuotes(line).trim();
  for (;;) {
    const next = t.replace(COURTESY, '').replace(HERE_IS, '').replace(ANSWER_LABEL, '').trim();
    if (next === t) return t;
    t = next;
  }
}

/** A line that only introduces what follows: "Here's Mia's reply:", "Sure! Here are 3 ideas:", a heading "Answer". */
export function isIntroLine(line: string): boolean {
  const t = plainQuotes(line).trim();
  if (/^(?:(?:my\s+)?(?:final\s+)?(?:answer|response|reply|result|output|message|post))\s*:?$/i.test(t)) return true;
  if (!t.endsWith(':')) return false;
  return stripPreamble(t) === '' || /^(?:sure|okay|ok|alright|of\s+course|certainly|absolutely|great)\b/i.test(t);
}

/** The first line that carries the answer, with markdown, preambles and answer labels stripped; '' when none. */
export function leadLine(text: string): string {
  const lines = contentLines(text);
  for (const [i, line] of lines.entries()) {
    // A lone "Answer" is a heading only when something follows it; alone, it is the answer (a hint word, say).
    if (isIntroLine(line) && (i < lines.length - 1 || line.trim().endsWith(':'))) continue;
    const t = stripPreamble(line);
    if (t) return t;
  }
  return '';
}

const AI_DISCLAIMER =
  /\b(?:as\s+an?\s+(?:ai|artificial\s+intelligence|(?:large\s+)?language\s+model|llm|chatbot|virtual\s+assistant)|i(?:'m|\s+am)\s+(?:just\s+|only\s+)?an?\s+(?:ai|artificial\s+intelligence|(?:large\s+)?language\s+model|chatbot|virtual\s+assistant))\b/i;
const DECLINE =
  /\bi\s+(?:do\s+not|don't)\s+have\s+(?:personal\s+|my\s+own\s+|any\s+)?(?:opinions?|beliefs?|views?|preferences?|feelings?|stances?|money|experiences?)\b|\bi(?:'m|\s+am)\s+(?:not\s+able|unable)\s+to\s+(?:provide|give|share|express|form|offer|choose|pick|select|answer|participate|play|engage|write|help|assist|comply|evaluate|rate|judge)\b|\bi\s+(?:cannot|can't|can\s+not|won't|will\s+not)\s+(?:provide|give|share|express|form|offer|hold|choose|pick|select|answer|participate|play|engage|write|help|assist|comply|evaluate|rate|judge|continue|role-?play|fulfil+)\b(?!\s+(?:more|less|up|in|away|but|you\s+more|it\s+all|everything))|\bi(?:'m|\s+am)\s+sorry,?\s+but\s+i\b/i;
const DECLINE_AT_START =
  /^(?:i(?:'m|\s+am)\s+sorry,?\s+(?:but\s+)?i\s+(?:can't|cannot|won't)|i\s+(?:can't|cannot|won't)\s+(?:help|assist|write|comply|create|do\s+that))\b/i;

/**
 * Why a reply declines the task instead of answering, or null. `answer` formats (a vote, a number, a word) refuse
 * any AI disclaimer or decline ("As an AI…", "I don't have personal opinions", "I can't choose"); `text` formats
 * (posts, messages, stories, dialogue) refuse AI disclaimers anywhere and declines only at the start, since the
 * text itself may say "I can't…".
 */
export function refusalIn(text: string, kind: 'answer' | 'text' = 'answer'): string | null {
  const t = plainQuotes(text);
  if (AI_DISCLAIMER.test(t)) return 'declined: an AI disclaimer instead of an answer';
  if (kind === 'answer' ? DECLINE.test(t) : DECLINE_AT_START.test(stripPreamble(t))) return 'declined to answer';
  return null;
}

const SELF_CORRECTION =
  /\b(?:wait\s*[,.!]|actually\s*,|on\s+second\s+thoughts?|let\s+me\s+(?:re-?check|reconsider|re-?think|think\s+again|change)|i(?:'ll|\s+will)\s+change\s+(?:it|my\s+(?:answer|mind))|change\s+my\s+(?:answer|mind)|scratch\s+that|correction\s*:)/i;

/** A short answer that corrects itself ("B. Wait, let me recheck… A") is ambiguous; a leading "Actually," is not. */
export function selfCorrects(text: string): boolean {
  const t = plainQuotes(text);
  const m = SELF_CORRECTION.exec(t);
  return m !== null && /[A-Za-z0-9]/.test(t.slice(0, m.index));
}

/** The one value all readings of a reply agree on; fails when there is none, or when they differ. */
export function agreed<T>(values: readonly T[], none: string): ParseResult<T> {
  if (values.length === 0) return fail(none);
  const first = values[0];
  const same = (a: T, b: T) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : a === b);
  if (values.some((v) => !same(v, first))) return fail(`conflicting answers: ${[...new Set(values.map(String))].join(' and ')}`);
  return ok(first);
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers

const SMALL_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const FRACTION_WORDS: [RegExp, number][] = [
  [/^(?:(?:a|one)[\s-]+)?half\b/i, 1 / 2],
  [/^(?:a|one)[\s-]+(?:quarter|fourth)\b/i, 1 / 4],
  [/^three[\s-]+quarters\b/i, 3 / 4],
  [/^(?:a|one)[\s-]+third\b/i, 1 / 3],
  [/^two[\s-]+thirds\b/i, 2 / 3],
];

export interface NumberAt {
  value: number;
  /** Characters of the input the number took. */
  length: number;
  /** Written in words ("twenty-five", "half"). */
  words: boolean;
  /** Where it starts (digitNumbers only). */
  index?: number;
}

function wordNumberAt(s: string): NumberAt | null {
  for (const [re, v] of FRACTION_WORDS) {
    const m = s.match(re);
    if (m) return { value: v, length: m[0].length, words: true };
  }
  const toks: { w: string; end: number }[] = [];
  const re = /([a-z]+)(?:[\s-]+|(?=[^a-z])|$)/giy;
  let m: RegExpExecArray | null;
  while (toks.length < 8 && (m = re.exec(s)) !== null) toks.push({ w: m[1].toLowerCase(), end: m.index + m[1].length });
  let i = 0;
  let value: number | null = null;
  const below100 = (): number | null => {
    const t = toks[i]?.w;
    if (t === undefined) return null;
    if (t in TENS) {
      let v = TENS[t];
      i++;
      const u = toks[i]?.w;
      if (u !== undefined && u in SMALL_NUMBERS && SMALL_NUMBERS[u] >= 1 && SMALL_NUMBERS[u] <= 9) {
        v += SMALL_NUMBERS[u];
        i++;
      }
      return v;
    }
    if (t in SMALL_NUMBERS) {
      i++;
      return SMALL_NUMBERS[t];
    }
    return null;
  };
  const t0 = toks[0]?.w;
  if (t0 === 'hundred' || ((t0 === 'a' || t0 === 'one') && toks[1]?.w === 'hundred')) {
    i = t0 === 'hundred' ? 1 : 2;
    value = 100;
  } else if (t0 !== undefined && t0 in SMALL_NUMBERS && SMALL_NUMBERS[t0] >= 1 && toks[1]?.w === 'hundred') {
    value = SMALL_NUMBERS[t0] * 100;
    i = 2;
  }
  if (value !== null) {
    const save = i;
    if (toks[i]?.w === 'and') i++;
    const rest = below100();
    if (rest === null) i = save;
    else value += rest;
  } else value = below100();
  if (value === null) return null;
  if (toks[i]?.w === 'point' && toks[i + 1]?.w !== undefined && (SMALL_NUMBERS[toks[i + 1].w] ?? 10) <= 9) {
    let digits = '';
    let j = i + 1;
    while (toks[j] && (SMALL_NUMBERS[toks[j].w] ?? 10) <= 9) digits += String(SMALL_NUMBERS[toks[j++].w]);
    value = Number(`${value}.${digits}`);
    i = j;
  }
  return { value, length: toks[i - 1].end, words: true };
}

const DIGITS_AT = /^([+-]|\u2212)?\s?\$?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\s?\/\s?(\d+(?:\.\d+)?))?(?!\w|\.\d|,\d)/;

/** A number at the very start of `s`: digits ("$0.40", ".5", "-3", "3/4") or words ("twenty-five", "one hundred", "half"). */
export function numberAt(s: string): NumberAt | null {
  const d = s.match(DIGITS_AT);
  if (d) {
    let v = Number(d[2].replace(/,/g, ''));
    if (d[3] !== undefined) {
      const den = Number(d[3]);
      // "50/50" is a split, not a fraction: only proper fractions ("1/2", "3/4") are numbers here.
      if (!(den > 0) || v >= den) return null;
      v /= den;
    }
    if (d[1]) v = -v;
    return Number.isFinite(v) ? { value: v, length: d[0].length, words: false } : null;
  }
  return wordNumberAt(s);
}

/** The number a whole answer line is ("33", "Thirty-three.", "$0.40", "Half"), with what follows it; or null. */
export function wholeNumber(line: string): { value: number; rest: string } | null {
  const t = plainQuotes(line)
    .trim()
    .replace(/^["'([]+/, '');
  const n = numberAt(t);
  if (!n) return null;
  const rest = t
    .slice(n.length)
    .replace(/[\s"')\].!]+$/, '')
    .trim();
  return { value: n.value, rest };
}

/** Numbers written in digits in a text, in order ("3/4" is one number); words are not read here. */
export function digitNumbers(text: string): NumberAt[] {
  const out: NumberAt[] = [];
  const re = /(?:^|[^\w./$])(?=[+\-\u2212]?\$?\s?\.?\d)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const at = m.index + m[0].length;
    const n = numberAt(text.slice(at));
    if (n && !n.words) {
      out.push({ ...n, index: at });
      re.lastIndex = at + n.length;
    } else re.lastIndex = at + 1;
  }
  return out;
}

/** Words that make a number inexact or one of several ("about 30", "between 20 and 30", "more than half"). */
export const HEDGED_NUMBER =
  /^(?:about|around|roughly|approximately|approx\.?|close\s+to|near|nearly|almost|at\s+least|at\s+most|more\s+than|less\s+than|over|under|up\s+to|between|somewhere|maybe|perhaps|probably|something\s+like|a\s+number|any(?:thing|where)?|either)\b/i;
export const HEDGE_WORDS =
  /\b(?:about|around|roughly|approximately|approx|close\s+to|nearly|almost|at\s+least|at\s+most|more\s+than|less\s+than|up\s+to|between|somewhere|maybe|perhaps|something\s+like|either|depends)\b/i;
/** After a number: an alternative or a range follows ("30 or 40", "0.4 to 0.6", "20-30"). */
export const ALTERNATIVE_NUMBER =
  /^\s*(?:%|percent|cents?|dollars?)?\s*(?:or|to|\/|\u2013|-|and)\s*\$?\s*(?:[.\d]|(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|half|a\s+half)\b)/i;

export interface CuedNumbers {
  /** Exact numbers right after a cue, with the text that follows each. */
  found: { value: number; rest: string }[];
  /** A cue was followed by a hedged number or by alternatives. */
  vague: boolean;
}

/** Numbers that follow a cue ("I'll pick 33", "My share: 0.45", "\boxed{22}"); `cue` must be a global regex. */
export function cuedNumbers(text: string, cue: RegExp): CuedNumbers {
  const t = plainQuotes(stripMarkdown(text));
  const out: CuedNumbers = { found: [], vague: false };
  for (const m of t.matchAll(cue)) {
    const rest = t.slice(m.index + m[0].length).replace(/^[\s"'([:=]+/, '');
    if (HEDGED_NUMBER.test(rest)) {
      out.vague = true;
      continue;
    }
    const n = numberAt(rest);
    if (!n) continue;
    const after = rest.slice(n.length);
    if (ALTERNATIVE_NUMBER.test(after)) {
      out.vague = true;
      continue;
    }
    out.found.push({ value: n.value, rest: after });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

/**
 * The balanced top-level `{…}` spans of a text, in order. Braces inside '…' or "…" strings and // or /* comments are
 * skipped; an opening brace that never closes (a reply cut off, or prose) is passed over.
 */
export function jsonObjectSpans(text: string): string[] {
  const spans: string[] = [];
  let from = 0;
  for (let tries = 0; tries < 64; tries++) {
    const start = text.indexOf('{', from);
    if (start < 0) break;
    const end = closingBrace(text, start);
    if (end < 0) {
      from = start + 1;
      continue;
    }
    spans.push(text.slice(start, end + 1));
    from = end + 1;
  }
  return spans;
}

function closingBrace(text: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
      else if (ch === '\n' && quote === "'") return -1;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The first balanced top-level JSON object in a text (skipping a code fence or prose around it), or null. */
export function extractJsonObject(text: string): string | null {
  return jsonObjectSpans(text)[0] ?? null;
}

/**
 * The JSON object of a reply; never throws. Reads strict JSON and, through the json5 library, what small models
 * write instead: single quotes, trailing commas, unquoted keys, comments, "+1". Thinking and code fences are
 * skipped; an echoed template that does not parse is passed over; two objects that differ are refused.
 */
export function parseJsonObject(raw: unknown): ParseResult<Record<string, unknown>> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const spans = jsonObjectSpans(r.value);
  const objects: Record<string, unknown>[] = [];
  let error = '';
  for (const s of spans) {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      try {
        v = JSON5.parse(s);
      } catch (e) {
        error ||= (e as Error).message;
        continue;
      }
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) objects.push(v as Record<string, unknown>);
    else error ||= 'JSON is not an object';
  }
  if (objects.length === 0) {
    if (spans.length) return fail(`invalid JSON: ${error}`);
    const refused = refusalIn(r.value);
    if (refused) return fail(refused);
    return fail(r.value.includes('{') ? 'no complete JSON object (cut off?)' : 'no JSON object found');
  }
  if (new Set(objects.map((o) => JSON.stringify(o))).size > 1) return fail('more than one JSON object, and they differ');
  return ok(objects[0]);
}

/** A key of a model's JSON object, read as the lab writes it: case, spaces and hyphens ignored ("Social Rules"). */
export function jsonField(o: Record<string, unknown>, ...names: string[]): unknown {
  const norm = (k: string) =>
    k
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
  for (const n of names) if (Object.hasOwn(o, n)) return o[n];
  const want = new Set(names.map(norm));
  for (const [k, v] of Object.entries(o)) if (want.has(norm(k))) return v;
  return undefined;
}

/** Caps a text to its last `maxChars` characters, cutting at a word boundary (inboxes, message lists). */
export function tail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(text.length - maxChars);
  const sp = cut.indexOf(' ');
  return sp >= 0 && sp < 40 ? cut.slice(sp + 1) : cut;
}

/** Joins list items as "- item" lines, or "(none)". */
export function bulletList(items: readonly string[]): string {
  const xs = items.map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s.length > 0);
  return xs.length ? xs.map((s) => `- ${s}`).join('\n') : '(none)';
}

/** Formats money compactly: 100 -> "100", 112.5 -> "112.50". */
export function money(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}
