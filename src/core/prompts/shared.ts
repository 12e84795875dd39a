/**
 * Shared pieces of the lab prompt formats: chat messages, parse results, and tolerant-but-strict extraction helpers.
 * Pure TypeScript (no DOM): used by the labs, the CLI and the embedded model's corpus generator.
 */

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

/** Removes chat control tokens a model may echo, and normalises line endings. */
export function cleanReply(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return raw
    .replace(/<\|im_end\|>[\s\S]*$/, '')
    .replace(/<\|(?:im_start|im_end|endoftext|eot_id|end_of_text)\|>/g, '')
    .replace(/<\/?s>/g, '')
    .replace(/\r\n?/g, '\n')
    .trim();
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
  t = t.replace(/^\*\*(.*)\*\*$/, '$1').replace(/^\*(.*)\*$/, '$1').replace(/^`(.*)`$/, '$1').trim();
  const pairs: [string, string][] = [['"', '"'], ["'", "'"], ['\u201c', '\u201d'], ['\u2018', '\u2019']];
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

/**
 * The first balanced top-level JSON object in a text (skipping a code fence or prose around it), or null.
 * Braces inside JSON strings are handled.
 */
export function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inStr = false;
  let esc = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inStr) {
      if (esc) esc = false;
      else if (ch === '\\') esc = true;
      else if (ch === '"') inStr = false;
      continue;
    }
    if (ch === '"') inStr = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/** Parses the first JSON object in a reply; never throws. */
export function parseJsonObject(raw: unknown): ParseResult<Record<string, unknown>> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const js = extractJsonObject(text);
  if (js === null) return fail('no JSON object found');
  try {
    const v: unknown = JSON.parse(js);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail('JSON is not an object');
    return ok(v as Record<string, unknown>);
  } catch (e) {
    return fail(`invalid JSON: ${(e as Error).message}`);
  }
}

/** Parses a plain decimal number (optionally signed, with a leading $), or null. */
export function toNumber(s: string): number | null {
  const m = s.trim().match(/^[+-]?\$?\s*(\d+(?:\.\d*)?|\.\d+)$/);
  if (!m) return null;
  const v = Number(m[1]);
  if (!Number.isFinite(v)) return null;
  return s.trim().startsWith('-') ? -v : v;
}

/** All numbers in a text, in order (handles "$12.50", "-2", "+1", ".5"; ignores digits inside words). */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  const re = /(^|[^\w.])([+-]?)\$?(\d+(?:\.\d+)?|\.\d+)(?![\w])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const v = Number(m[3]);
    if (Number.isFinite(v)) out.push(m[2] === '-' ? -v : v);
  }
  return out;
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
