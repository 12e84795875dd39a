/**
 * The LLM community run (docs/opinions-lab.md, "LLM community run"; method in docs/methods/opinions.md).
 *
 * One stored episode is one round of one trajectory, so every round is kept as it completes and a resumed run
 * restarts mid-trajectory: round t reads the agents' ō and spins from the previous episode (round t − 1), which the
 * host passes as `ctx.previous`. Every model call's seed is derived from the run seed, the question, the graph, the
 * trajectory, the round, the agent and the vote (or message attempt), so a resumed or redone round repeats exactly
 * on the same model and backend.
 */
import { askParsedEach } from '../../core/runs/ask';
import { constrainedReply } from '../../core/prompts/formats';
import { hashSeed, createRng } from '../../core/rng';
import { scanUntrusted } from '../../core/config/untrusted';
import { requireModels, sampleEach, type RunnerGenerateOptions } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { EpisodeContext } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import type { LivePlot } from '../../core/runs/live-plot';
import {
  buildInboxVotePrompt,
  buildInitialVotePrompt,
  buildStanceMessagePrompt,
  parseStanceMessage,
  parseVote,
  voteSpin,
  type OpinionPersona,
  type OpinionQuestion,
  type Vote,
} from '../../core/prompts/opinions';
import {
  agentRows,
  assignPersonas,
  communityGraph,
  communityGraphId,
  communityLayout,
  encodeRoundEdges,
  episodeSlot,
  personaPool,
  promptPersona,
  promptQuestion,
  resolveQuestions,
  roundRow,
  trajectoriesFromRun,
  type AgentRow,
  type RoundRow,
} from './community-data';
import type { OpinionsConfig } from './graph';
import { TRAJECTORY_FORMAT } from './trajectory';
import type { OpinionsRecord } from './records';
import type { OpinionsSummary } from './results';

/** Tokens a vote may take ("Disagree." is 2–4 tokens; more is a reply that will not parse anyway). */
export const VOTE_MAX_TOKENS = 8;

/**
 * How every vote is asked (community rounds and the screening alike): at the community's temperature, one line, and
 * under the vote format's grammar when the config asks for constrained decoding (every vote then parses).
 */
export function voteRequest(c: OpinionsConfig['community'], kind: OpinionQuestion['kind']): Omit<RunnerGenerateOptions, 'messages' | 'seed'> {
  const constrained = c.decoding === 'constrained' ? constrainedReply(kind === 'subjective' ? 'vote-subjective' : 'vote-objective') : undefined;
  return {
    temperature: c.temperature,
    maxNewTokens: Math.max(VOTE_MAX_TOKENS, constrained?.minTokens ?? 0),
    stop: ['\n'],
    ...(constrained ? { grammar: constrained.grammar } : {}),
  };
}

export function voteFor(kind: OpinionQuestion['kind'], spin: 1 | -1): Vote {
  return kind === 'objective' ? (spin > 0 ? 'A' : 'B') : spin > 0 ? 'Agree' : 'Disagree';
}

/**
 * ō_i from K parsed votes: the mean of their spins over the votes that parsed. An agent whose K votes all failed keeps
 * its previous ō and spin (round 0: ō = 0, spin +1). A tie (ō = 0) keeps the previous spin (+1 in round 0), as
 * `spinsFromVoteMeans` does for the fits.
 */
export function aggregateVotes(votes: readonly (Vote | null)[], previous?: { obar: number; spin: 1 | -1 }): { obar: number; spin: 1 | -1; parsed: number } {
  let sum = 0;
  let parsed = 0;
  for (const v of votes) {
    if (!v) continue;
    sum += voteSpin(v);
    parsed++;
  }
  const prevSpin = previous?.spin ?? 1;
  if (!parsed) return { obar: previous?.obar ?? 0, spin: prevSpin, parsed };
  const obar = sum / parsed;
  return { obar, spin: obar > 0 ? 1 : obar < 0 ? -1 : prevSpin, parsed };
}

/**
 * Files the round's delivered messages into each receiver's inboxes by edge sign: friendly (+1) and unfriendly (−1).
 * Only this round's messages (the inboxes hold the latest round), senders in neighbour order. `messages[j]` is null
 * when j sent nothing (an async agent sitting out, or a message that did not parse).
 */
export function routeInboxes(
  graph: { n: number; rowPtr: Int32Array; col: Int32Array; sign: Int8Array },
  messages: readonly (string | null)[],
): { friendly: number[][]; unfriendly: number[][] } {
  const friendly: number[][] = Array.from({ length: graph.n }, () => []);
  const unfriendly: number[][] = Array.from({ length: graph.n }, () => []);
  for (let i = 0; i < graph.n; i++) {
    for (let p = graph.rowPtr[i]; p < graph.rowPtr[i + 1]; p++) {
      const j = graph.col[p];
      if (messages[j] === null || messages[j] === undefined) continue;
      (graph.sign[p] > 0 ? friendly : unfriendly)[i].push(j);
    }
  }
  return { friendly, unfriendly };
}

/**
 * Model text as stored. Bundles are imported like links (markup and script URLs refused), so a reply that looks like
 * markup would make its run's export impossible to import again. Such a text is stored with `<`, `=` and `:`
 * replaced by look-alikes (‹ ＝ ꞉) and counted in the row's `escaped`; prompts always use the text as written.
 */
export function storable(text: string): { text: string; escaped: boolean } {
  if (!scanUntrusted(text).length) return { text, escaped: false };
  const t = text.replace(/</g, '\u2039').replace(/=/g, '\uff1d').replace(/:/g, '\ua789');
  return scanUntrusted(t).length ? { text: '[reply withheld: it looked like markup]', escaped: true } : { text: t, escaped: true };
}

/** Which agents update in round t: all of them (sync, and round 0), else each with probability ε. */
export function updatingAgents(config: OpinionsConfig, base: string, n: number, t: number): boolean[] {
  if (t === 0 || config.community.update === 'sync') return new Array<boolean>(n).fill(true);
  const rng = createRng(hashSeed(`${base}/async`));
  return Array.from({ length: n }, () => rng.next() < config.community.epsilon);
}

export async function runCommunityEpisode(config: OpinionsConfig, ctx: EpisodeContext<OpinionsRecord>): Promise<Episode<OpinionsRecord>> {
  const c = config.community;
  const layout = communityLayout(config);
  if (ctx.index < 0 || ctx.index >= layout.episodes) throw new Error(`Episode ${ctx.index} is outside this run's ${layout.episodes} episodes.`);
  const slot = episodeSlot(layout, ctx.index);
  const qs = resolveQuestions(config);
  if (!qs.ok) throw new Error(qs.reason);
  const item = qs.items[slot.q];
  const { question, correct } = promptQuestion(item, config.seed);
  const graph = communityGraph(config, slot.g);
  const graphId = communityGraphId(config, slot.g);
  const n = graph.n;
  const personaIds = assignPersonas(config, n, slot.g);
  const byId = new Map(personaPool(config).map((p) => [p.id, p]));
  const personas: OpinionPersona[] = personaIds.map((id) => {
    const p = byId.get(id);
    if (!p) throw new Error(`The persona "${id}" does not exist.`);
    return promptPersona(item, p, c.objectivePersona);
  });
  const model = requireModels('opinions', ctx.models).get(c.model);

  // The previous round of this trajectory (t ≥ 1).
  let prev: AgentRow[] | null = null;
  if (slot.t > 0) {
    const r = ctx.previous ? roundRow(ctx.previous) : undefined;
    if (!ctx.previous || !r || r.question !== item.id || r.graph !== slot.g || r.trajectory !== slot.e || r.t !== slot.t - 1)
      throw new Error(
        `Round ${slot.t} of ${item.id}/g${slot.g}/e${slot.e} needs round ${slot.t - 1} as the previous episode, and the host passed ${ctx.previous ? `episode ${ctx.previous.index}` : 'none'}.`,
      );
    prev = agentRows(ctx.previous).sort((a, b) => a.agent - b.agent);
    if (prev.length !== n) throw new Error(`The previous round holds ${prev.length} agents, but the graph has ${n}.`);
  }

  const base = `${config.seed}/${item.id}/g${slot.g}/e${slot.e}/t${slot.t}`;
  const updating = updatingAgents(config, base, n, slot.t);
  const senders = slot.t === 0 ? 0 : updating.filter(Boolean).length;
  const voters = updating.filter(Boolean).length;
  const totalCalls = Math.max(1, senders * c.messageAttempts * 0.6 + voters * c.votesPerRound);
  let calls = 0;
  const started = now();
  const label = `${item.id} · graph ${slot.g + 1}/${layout.graphs} · trajectory ${slot.e + 1}/${layout.trajectories} · round ${slot.t}/${c.rounds}`;
  const step = (note: string) => {
    calls++;
    ctx.progress(Math.min(0.99, calls / totalCalls), `${label} · ${note}`);
  };
  const voteAsk = voteRequest(c, question.kind);

  // 1. Messages (t ≥ 1): each updating agent states its current answer and one reason.
  const delivered: (string | null)[] = new Array(n).fill(null);
  const rawMessages: string[][] = Array.from({ length: n }, () => []);
  const messageStance: (string | null)[] = new Array(n).fill(null);
  const messageFailures = new Array<number>(n).fill(0);
  if (prev) {
    // Every updating agent's message is asked at once: each try decodes the messages still unanswered together.
    const writers = Array.from({ length: n }, (_, i) => i).filter((i) => updating[i]);
    const answers = await askParsedEach(
      model,
      writers.map((i) => ({
        messages: buildStanceMessagePrompt(personas[i], question, voteFor(question.kind, prev[i].spin)),
        parse: (text: string) => parseStanceMessage(text, question.kind),
        attempts: c.messageAttempts,
        maxNewTokens: c.messageTokens,
        temperature: c.temperature,
        stop: ['\n'],
        seed: (a: number) => `${base}/a${i}/m${a}`,
        signal: ctx.signal,
      })),
    );
    writers.forEach((i, j) => {
      const asked = answers[j];
      rawMessages[i].push(...asked.raw);
      for (const text of asked.raw) step(`agent ${i} says: ${text.slice(0, 120)}`);
      messageFailures[i] = asked.ok ? asked.raw.length - 1 : asked.raw.length;
      if (asked.ok) {
        delivered[i] = asked.value.text;
        messageStance[i] = asked.value.stance;
      }
    });
  }
  const inbox = prev ? routeInboxes(graph, delivered) : null;

  // 2. Votes: K per updating agent, from persona + question (t = 0) or + its two inboxes (t ≥ 1). Every agent's K
  // votes are asked at once: each agent's K share one prefill, and all are decoded together, where the host allows it;
  // vote k of agent i is still the reply to its own seed.
  const friendlyOf = (i: number) => (inbox && updating[i] ? inbox.friendly[i] : []);
  const unfriendlyOf = (i: number) => (inbox && updating[i] ? inbox.unfriendly[i] : []);
  const voting = Array.from({ length: n }, (_, i) => i).filter((i) => updating[i]);
  throwIfAborted(ctx.signal);
  const ballots = await sampleEach(
    model,
    voting.map((i) => ({
      options: {
        ...voteAsk,
        messages: prev
          ? buildInboxVotePrompt(
              personas[i],
              question,
              friendlyOf(i).map((j) => delivered[j]!),
              unfriendlyOf(i).map((j) => delivered[j]!),
            )
          : buildInitialVotePrompt(personas[i], question),
      },
      seeds: Array.from({ length: c.votesPerRound }, (_, k) => `${base}/a${i}/v${k}`),
    })),
  );
  throwIfAborted(ctx.signal);
  const ballotOf = new Map(voting.map((i, k) => [i, ballots[k]]));
  const rows: AgentRow[] = [];
  let votesTotal = 0;
  let voteFailuresTotal = 0;
  for (let i = 0; i < n; i++) {
    const p = prev?.[i];
    const row: AgentRow = {
      kind: 'agent',
      question: item.id,
      questionKind: item.kind,
      graph: slot.g,
      graphId,
      trajectory: slot.e,
      t: slot.t,
      agent: i,
      persona: personaIds[i],
      updated: updating[i],
      votes: [],
      rawVotes: [],
      voteFailures: 0,
      obar: p?.obar ?? 0,
      spin: p?.spin ?? 1,
      message: delivered[i],
      messageStance: messageStance[i],
      rawMessages: rawMessages[i],
      messageFailures: messageFailures[i],
      friendlyFrom: friendlyOf(i),
      unfriendlyFrom: unfriendlyOf(i),
      escaped: 0,
    };
    if (updating[i]) {
      const votes: (Vote | null)[] = [];
      for (const { text } of ballotOf.get(i)!) {
        const parsed = parseVote(text, question.kind);
        votes.push(parsed.ok ? parsed.value : null);
        row.rawVotes.push(text);
        step(`agent ${i} votes ${parsed.ok ? parsed.value : `(unparsed: ${text.slice(0, 40)})`}`);
      }
      const agg = aggregateVotes(votes, p);
      row.votes = votes;
      row.voteFailures = votes.length - agg.parsed;
      row.obar = agg.obar;
      row.spin = agg.spin;
      votesTotal += votes.length;
      voteFailuresTotal += row.voteFailures;
    }
    rows.push(row);
  }

  for (const row of rows) {
    let escaped = 0;
    const keep = (x: string) => {
      const st = storable(x);
      if (st.escaped) escaped++;
      return st.text;
    };
    row.rawVotes = row.rawVotes.map(keep);
    row.rawMessages = row.rawMessages.map(keep);
    if (row.message !== null) row.message = keep(row.message);
    row.escaped = escaped;
  }

  const nNet = rows.reduce((s, r) => s + r.obar, 0) / n;
  const conv = rows.reduce((s, r) => s + r.obar * r.obar, 0) / n;
  const round: RoundRow = {
    kind: 'round',
    question: item.id,
    questionKind: item.kind,
    questionText: item.text,
    correct: correct ?? null,
    graph: slot.g,
    graphId,
    trajectory: slot.e,
    t: slot.t,
    n: nNet,
    c: conv,
    fractionCorrect: correct ? rows.filter((r) => r.spin === correct).length / n : null,
    agents: n,
    updated: voters,
    votes: votesTotal,
    voteFailures: voteFailuresTotal,
    messages: senders,
    messageFailures: messageFailures.reduce((a, b) => a + b, 0),
    undelivered: rows.filter((r) => r.updated && prev && r.message === null).length,
    calls,
    seconds: (now() - started) / 1000,
    edges: encodeRoundEdges(graph),
  };
  ctx.progress(1, `${label} · n = ${nNet.toFixed(2)}, c = ${conv.toFixed(2)}`);
  return { index: ctx.index, records: [round, ...rows], tensors: {} };
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** n(t), c(t) and the fraction correct of the trajectory the run is on (the last stored round's). */
export function communityLivePlot(_config: OpinionsConfig, episodes: readonly Episode<OpinionsRecord>[]): LivePlot | null {
  const last = episodes[episodes.length - 1];
  const r = last && roundRow(last);
  if (!r) return null;
  const rows: RoundRow[] = [];
  for (let k = episodes.length - 1; k >= 0; k--) {
    const x = roundRow(episodes[k]);
    if (!x || x.question !== r.question || x.graph !== r.graph || x.trajectory !== r.trajectory) break;
    rows.unshift(x);
    if (x.t === 0) break;
  }
  const series = [
    { name: 'n(t)', values: rows.map((x) => x.n) },
    { name: 'c(t)', values: rows.map((x) => x.c) },
  ];
  if (r.questionKind === 'objective') series.push({ name: 'fraction correct', values: rows.map((x) => x.fractionCorrect ?? 0) });
  return { title: `${r.question}, graph ${r.graph + 1}, trajectory ${r.trajectory + 1}`, xLabel: 'round t', yLabel: 'n, c', yDomain: [-1, 1], series };
}

export interface ParseCounts {
  votes: number;
  voteFailures: number;
  messages: number;
  messageAttempts: number;
  messageFailures: number;
  /** Agents whose message could not be delivered (every attempt failed). */
  undelivered: number;
}

export function parseCounts(episodes: readonly Episode<OpinionsRecord>[]): ParseCounts {
  const out: ParseCounts = { votes: 0, voteFailures: 0, messages: 0, messageAttempts: 0, messageFailures: 0, undelivered: 0 };
  for (const ep of episodes) {
    for (const a of agentRows(ep)) {
      out.votes += a.rawVotes.length;
      out.voteFailures += a.voteFailures;
      if (a.t > 0 && a.updated) {
        out.messages++;
        out.messageAttempts += a.rawMessages.length;
        out.messageFailures += a.messageFailures;
        if (a.message === null) out.undelivered++;
      }
    }
  }
  return out;
}

export function summarizeCommunity(config: OpinionsConfig, episodes: readonly Episode<OpinionsRecord>[]): OpinionsSummary[] {
  const rounds = episodes.map(roundRow).filter((r): r is RoundRow => !!r);
  const counts = parseCounts(episodes);
  const perTrajectory = new Map<string, { question: string; graphId: string; n: number[]; c: number[]; fractionCorrect: (number | null)[] }>();
  for (const r of rounds) {
    const key = `${r.question}/g${r.graph}/e${r.trajectory}`;
    let x = perTrajectory.get(key);
    if (!x) perTrajectory.set(key, (x = { question: r.question, graphId: r.graphId, n: [], c: [], fractionCorrect: [] }));
    x.n[r.t] = r.n;
    x.c[r.t] = r.c;
    x.fractionCorrect[r.t] = r.fractionCorrect;
  }
  const seconds = rounds.map((r) => r.seconds);
  return [
    {
      name: 'community',
      value: {
        rounds: rounds.length,
        decoding: config.community.decoding,
        voteParseRate: counts.votes ? 1 - counts.voteFailures / counts.votes : null,
        messageParseRate: counts.messageAttempts ? 1 - counts.messageFailures / counts.messageAttempts : null,
        messageDeliveryRate: counts.messages ? 1 - counts.undelivered / counts.messages : null,
        ...counts,
        secondsPerRound: seconds.length ? seconds.reduce((a, b) => a + b, 0) / seconds.length : null,
        trajectories: Object.fromEntries(perTrajectory),
      },
    },
    { name: 'trajectories', value: { format: TRAJECTORY_FORMAT, trajectories: trajectoriesFromRun(config, episodes) } },
  ];
}
