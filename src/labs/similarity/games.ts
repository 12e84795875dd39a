import { constrainedReply, type FormatParams, type ReplyFormatName } from '../../core/prompts/formats';
import { askParsed } from '../../core/runs/ask';
import { hashSeed } from '../../core/rng';
import type { RunnerModel } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { ChatMessage, ParseResult } from '../../core/prompts/shared';
import {
  beautyContestScore,
  buildBeautyContestPrompt,
  buildGuessPrompt,
  buildHintPrompt,
  buildPublicGoodsPrompt,
  buildSplitDollarPrompt,
  buildWordPrompt,
  parseBeautyNumber,
  parseDemand,
  parseGuess,
  parseHint,
  parsePublicGoods,
  parseWord,
  publicGoodsPayoff,
  splitDollarPayoff,
  wordsMatch,
} from '../../core/prompts/similarity';
import type { GameName, GameRecord, Move, RoundRecord } from './records';

export type { GameName, GameRecord, Move, RoundRecord } from './records';

export const GAME_TITLES: Record<GameName, string> = {
  wordGuessing: 'word guessing',
  publicGoods: 'public goods',
  splitDollar: 'split the dollar',
  beautyContest: 'beauty contest',
};

export const PUBLIC_GOODS_START = 100;
/** Tries per move before it counts as a forfeit; each try draws with its own seed. */
export const MOVE_ATTEMPTS = 3;
const MAX_TOKENS: Record<string, number> = { word: 8, hint: 8, guess: 8, publicGoods: 48, splitDollar: 12, beautyContest: 12 };
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export interface GamePlay {
  game: GameName;
  a: RunnerModel;
  b: RunnerModel;
  repeat: number;
  rounds: number;
  temperature: number;
  /** Reads a value from a reply that no parser accepted, when the config names a judge. */
  judge?: RunnerModel;
  /** Constrained decoding: each structured move is generated under its format's grammar, so that it always parses. */
  constrained?: boolean;
  /** Seeds every call: the run seed and the episode index. */
  seedKey: string;
  /** Aborted to stop the game; checked before every model call. */
  signal: AbortSignal;
  progress(fraction: number, note?: string): void;
}

/** What a judge should read from a reply, and how its answer is parsed. */
interface Extract<T> {
  what: string;
  parse: (raw: string) => ParseResult<T>;
}

/** The move's format and its params, for its grammar when the game is constrained. */
interface MoveFormat {
  format: ReplyFormatName;
  params?: FormatParams;
}

async function move<T extends string | number>(
  model: RunnerModel,
  messages: ChatMessage[],
  parse: (raw: string) => ParseResult<T>,
  maxNewTokens: number,
  play: GamePlay,
  key: string,
  extract: Extract<T>,
  shape?: MoveFormat,
): Promise<Move> {
  const constrained = play.constrained && shape ? constrainedReply(shape.format, shape.params) : undefined;
  const asked = await askParsed(model, {
    messages,
    parse,
    attempts: MOVE_ATTEMPTS,
    maxNewTokens,
    ...(constrained ? { constrained } : {}),
    temperature: play.temperature,
    seed: (attempt) => hashSeed(`${play.seedKey}/${key}/${attempt}`),
    signal: play.signal,
  });
  const raw = asked.raw;
  if (asked.ok) return { model: model.id, raw, value: asked.value, forfeit: false, extractedBy: 'parser' };
  const reason = asked.reason;
  if (play.judge && raw.length) {
    throwIfAborted(play.signal);
    const question = messages[messages.length - 1]?.content ?? '';
    const prompt = judgeExtractPrompt(question, raw[raw.length - 1], extract.what);
    const j = await play.judge.generate({ messages: prompt, temperature: 0, maxNewTokens: 16, seed: hashSeed(`${play.seedKey}/${key}/judge`) });
    const p = extract.parse(j.text);
    if (p.ok) return { model: model.id, raw, value: p.value, forfeit: false, extractedBy: 'judge', judgeRaw: j.text };
    return { model: model.id, raw, value: null, forfeit: true, reason: `${reason}; the judge could not read it either (${p.reason})`, judgeRaw: j.text };
  }
  return { model: model.id, raw, value: null, forfeit: true, reason };
}

/** The method's fallback: a judge model reads the value from free text. Greedy, one short answer. */
export function judgeExtractPrompt(question: string, reply: string, what: string): ChatMessage[] {
  const clip = (t: string) => (t.length > 600 ? `${t.slice(0, 600)}...` : t);
  const content = [
    'A player in a game was asked:',
    `<question>${clip(question)}</question>`,
    'The player replied:',
    `<reply>${clip(reply)}</reply>`,
    `What ${what} did the player give? Reply with it only, or NONE if the reply gives none.`,
  ].join('\n');
  return [{ role: 'user', content }];
}

const numberIn =
  (lo: number, hi: number) =>
  (t: string): ParseResult<number> => {
    const m = /-?\d+(?:\.\d+)?/.exec(t);
    if (!m) return { ok: false, reason: 'no number' };
    const v = Number(m[0]);
    return v >= lo && v <= hi ? { ok: true, value: v } : { ok: false, reason: `${v} outside ${lo}..${hi}` };
  };

const num = (m: Move) => (typeof m.value === 'number' ? m.value : 0);

async function wordGuessing(play: GamePlay): Promise<RoundRecord[]> {
  const out: RoundRecord[] = [];
  for (let r = 0; r < play.rounds; r++) {
    const letter = LETTERS[r % 26];
    play.progress(r / play.rounds, `${GAME_TITLES[play.game]}: letter ${letter}`);
    const wordOf = (t: string) => parseWord(t, letter);
    const word = await move(
      play.a,
      buildWordPrompt(letter),
      wordOf,
      MAX_TOKENS.word,
      play,
      `${r}/word`,
      { what: `word starting with ${letter}`, parse: wordOf },
      { format: 'word', params: { letter } },
    );
    const moves = [word];
    let match = false;
    if (!word.forfeit) {
      const hintOf = (t: string) => parseHint(t, String(word.value));
      const hint = await move(
        play.a,
        buildHintPrompt(String(word.value)),
        hintOf,
        MAX_TOKENS.hint,
        play,
        `${r}/hint`,
        { what: 'one-word hint', parse: hintOf },
        { format: 'hint', params: { word: String(word.value) } },
      );
      moves.push(hint);
      if (!hint.forfeit) {
        // the guesser starts from a fresh history every round
        const guessOf = (t: string) => parseGuess(t, letter);
        const guess = await move(
          play.b,
          buildGuessPrompt(letter, String(hint.value)),
          guessOf,
          MAX_TOKENS.guess,
          play,
          `${r}/guess`,
          { what: `guessed word starting with ${letter}`, parse: guessOf },
          { format: 'guess', params: { letter } },
        );
        moves.push(guess);
        match = !guess.forfeit && wordsMatch(String(guess.value), String(word.value));
      }
    }
    out.push({ kind: 'round', game: play.game, round: r + 1, moves, scores: [match ? 1 : 0, match ? 1 : 0], detail: { letter, match } });
  }
  return out;
}

/** The three numeric games: both move at once, each sees the past rounds' moves and outcomes in its prompt. */
async function simultaneous(play: GamePlay): Promise<RoundRecord[]> {
  const out: RoundRecord[] = [];
  const wealth = [PUBLIC_GOODS_START, PUBLIC_GOODS_START];
  const past: Array<{ a: number; b: number; target?: number }> = [];
  for (let r = 0; r < play.rounds; r++) {
    play.progress(r / play.rounds, `${GAME_TITLES[play.game]}: round ${r + 1} of ${play.rounds}`);
    const seen = (side: 0 | 1) => past.map((p) => ({ mine: side ? p.b : p.a, theirs: side ? p.a : p.b, target: p.target ?? 0 }));
    const players = [play.a, play.b];
    const moves: Move[] = [];
    for (const side of [0, 1] as const) {
      const state = { round: r + 1, rounds: play.rounds, past: seen(side) };
      if (play.game === 'publicGoods') {
        const w = wealth[side];
        moves.push(
          await move(
            players[side],
            buildPublicGoodsPrompt({ ...state, wealth: w }),
            (t) => mapOk(parsePublicGoods(t, w), (v) => v.amount),
            MAX_TOKENS.publicGoods,
            play,
            `${r}/${side}`,
            { what: `contribution in dollars (0 to ${w})`, parse: numberIn(0, w) },
            { format: 'contribution', params: { wealth: w } },
          ),
        );
      } else if (play.game === 'splitDollar') {
        moves.push(
          await move(
            players[side],
            buildSplitDollarPrompt(state),
            parseDemand,
            MAX_TOKENS.splitDollar,
            play,
            `${r}/${side}`,
            { what: 'share of the dollar (a number from 0 to 1)', parse: parseDemand },
            { format: 'demand' },
          ),
        );
      } else {
        moves.push(
          await move(
            players[side],
            buildBeautyContestPrompt(state),
            parseBeautyNumber,
            MAX_TOKENS.beautyContest,
            play,
            `${r}/${side}`,
            { what: 'number (0 to 100)', parse: parseBeautyNumber },
            { format: 'number' },
          ),
        );
      }
    }
    const [x, y] = [num(moves[0]), num(moves[1])];
    let scores: [number, number];
    let detail: RoundRecord['detail'];
    if (play.game === 'publicGoods') {
      const next = [publicGoodsPayoff(wealth[0], x, y), publicGoodsPayoff(wealth[1], y, x)];
      scores = [next[0] - wealth[0], next[1] - wealth[1]];
      wealth[0] = next[0];
      wealth[1] = next[1];
      detail = { wealthA: wealth[0], wealthB: wealth[1] };
      past.push({ a: x, b: y });
    } else if (play.game === 'splitDollar') {
      scores = [splitDollarPayoff(x, y), splitDollarPayoff(y, x)];
      past.push({ a: x, b: y });
    } else {
      const sa = beautyContestScore(x, y);
      scores = [sa.score, beautyContestScore(y, x).score];
      detail = { target: sa.target };
      past.push({ a: x, b: y, target: sa.target });
    }
    // a forfeit counts as a 0 move for the partner's outcome; in split the dollar and the beauty contest it also
    // scores nothing itself (in public goods, contributing 0 is a legal move and keeps its share of the pot)
    if (play.game !== 'publicGoods') moves.forEach((m, i) => m.forfeit && (scores[i] = 0));
    out.push({ kind: 'round', game: play.game, round: r + 1, moves, scores, ...(detail ? { detail } : {}) });
  }
  return out;
}

function mapOk<T, U>(p: ParseResult<T>, f: (v: T) => U): ParseResult<U> {
  return p.ok ? { ok: true, value: f(p.value) } : p;
}

/** Plays one game between a and b and returns its rounds and the final record. */
export async function playGame(play: GamePlay): Promise<{ rounds: RoundRecord[]; game: GameRecord }> {
  const rounds = play.game === 'wordGuessing' ? await wordGuessing(play) : await simultaneous(play);
  const all = rounds.flatMap((r) => r.moves);
  const sum = (i: 0 | 1) => rounds.reduce((s, r) => s + r.scores[i], 0);
  const scores: [number, number] = play.game === 'publicGoods' ? [PUBLIC_GOODS_START + sum(0), PUBLIC_GOODS_START + sum(1)] : [sum(0), sum(1)];
  return {
    rounds,
    game: {
      kind: 'game',
      game: play.game,
      a: play.a.id,
      b: play.b.id,
      repeat: play.repeat,
      rounds: play.rounds,
      scores,
      forfeits: all.filter((m) => m.forfeit).length,
      moves: all.length,
      judged: all.filter((m) => m.extractedBy === 'judge').length,
    },
  };
}
