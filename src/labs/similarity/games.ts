import { hashSeed } from '../../core/rng';
import type { RunnerModel } from '../../core/runs/models';
import type { CancelToken } from '../../core/runs/runner';
import { throwIfCancelled } from '../../core/runs/runner';
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

export type GameName = 'wordGuessing' | 'publicGoods' | 'splitDollar' | 'beautyContest';

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

/** One model's move in a round: what it wrote on each try, what was parsed, and whether it forfeited. */
export interface Move {
  model: string;
  raw: string[];
  value: string | number | null;
  /** No try parsed: the move counts as 0 (contribution, demand, number) or loses the word round. */
  forfeit: boolean;
  reason?: string;
}

export interface RoundRecord {
  kind: 'round';
  game: GameName;
  round: number;
  /** Word guessing: [thinker's word, thinker's hint, guesser's guess]; the other games: [a's move, b's move]. */
  moves: Move[];
  /** Round scores of a and b (word guessing: 1 for a match, for both). */
  scores: [number, number];
  detail?: Record<string, number | string | boolean>;
}

export interface GameRecord {
  kind: 'game';
  game: GameName;
  a: string;
  b: string;
  repeat: number;
  rounds: number;
  /** Final scores: public goods the final wealth, the others the sum over rounds (word guessing: matches). */
  scores: [number, number];
  forfeits: number;
  moves: number;
}

export interface GamePlay {
  game: GameName;
  a: RunnerModel;
  b: RunnerModel;
  repeat: number;
  rounds: number;
  temperature: number;
  /** Seeds every call: the run seed and the episode index. */
  seedKey: string;
  cancel: CancelToken;
  progress(fraction: number, note?: string): void;
}

async function move<T extends string | number>(
  model: RunnerModel,
  messages: ChatMessage[],
  parse: (raw: string) => ParseResult<T>,
  maxNewTokens: number,
  play: GamePlay,
  key: string,
): Promise<Move> {
  const raw: string[] = [];
  let reason = '';
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    throwIfCancelled(play.cancel);
    const r = await model.generate({ messages, temperature: play.temperature, maxNewTokens, seed: hashSeed(`${play.seedKey}/${key}/${attempt}`) });
    raw.push(r.text);
    const p = parse(r.text);
    if (p.ok) return { model: model.id, raw, value: p.value, forfeit: false };
    reason = p.reason;
  }
  return { model: model.id, raw, value: null, forfeit: true, reason };
}

const num = (m: Move) => (typeof m.value === 'number' ? m.value : 0);

async function wordGuessing(play: GamePlay): Promise<RoundRecord[]> {
  const out: RoundRecord[] = [];
  for (let r = 0; r < play.rounds; r++) {
    const letter = LETTERS[r % 26];
    play.progress(r / play.rounds, `${GAME_TITLES[play.game]}: letter ${letter}`);
    const word = await move(play.a, buildWordPrompt(letter), (t) => parseWord(t, letter), MAX_TOKENS.word, play, `${r}/word`);
    const moves = [word];
    let match = false;
    if (!word.forfeit) {
      const hint = await move(play.a, buildHintPrompt(String(word.value)), (t) => parseHint(t, String(word.value)), MAX_TOKENS.hint, play, `${r}/hint`);
      moves.push(hint);
      if (!hint.forfeit) {
        // the guesser starts from a fresh history every round
        const guess = await move(play.b, buildGuessPrompt(letter, String(hint.value)), (t) => parseGuess(t, letter), MAX_TOKENS.guess, play, `${r}/guess`);
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
        moves.push(await move(players[side], buildPublicGoodsPrompt({ ...state, wealth: w }), (t) => mapOk(parsePublicGoods(t, w), (v) => v.amount), MAX_TOKENS.publicGoods, play, `${r}/${side}`));
      } else if (play.game === 'splitDollar') {
        moves.push(await move(players[side], buildSplitDollarPrompt(state), parseDemand, MAX_TOKENS.splitDollar, play, `${r}/${side}`));
      } else {
        moves.push(await move(players[side], buildBeautyContestPrompt(state), parseBeautyNumber, MAX_TOKENS.beautyContest, play, `${r}/${side}`));
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
    game: { kind: 'game', game: play.game, a: play.a.id, b: play.b.id, repeat: play.repeat, rounds: play.rounds, scores, forfeits: all.filter((m) => m.forfeit).length, moves: all.length },
  };
}
