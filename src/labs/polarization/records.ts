/**
 * The Polarization lab's stored records, declared once. Every epoch holds its epoch row (P, H, the distribution;
 * the first episode also epoch 0's), without a `kind`; LLM runs add one `agent` row per updating agent, the epoch's
 * `interactions` and the `state` the next epoch starts from (runner.ts and llm-runner.ts write them; the summary,
 * the next epoch and the view read them). Pure.
 */
import { z } from 'zod';
import { episodeReader } from '../../core/runs/records';
import type { Episode } from '../../core/runs/types';

const count = z.number().int().min(0);
const agent = count;

/** One epoch's measures. Written before rows had kinds, so it has none. */
export const epochRow = z.object({
  kind: z.undefined().optional(),
  epoch: count,
  P: z.number(),
  H: z.number(),
  /** Agents per opinion level −2..+2. */
  distribution: z.array(count),
  rewires: count,
  // LLM runs only (updating from epoch 1, the intervention from epoch 1 on):
  updating: count.optional(),
  messagesSent: count.optional(),
  failures: count.optional(),
  calls: count.optional(),
  intervention: z.string().optional(),
  /** Self-regulated variant: stance changes checked, and those whose first check failed. */
  checked: count.optional(),
  inconsistent: count.optional(),
});

/** One updating agent's epoch, for the inspector and the exports. */
export const agentLog = z.object({
  kind: z.literal('agent'),
  epoch: count,
  agent,
  received: count,
  before: z.number(),
  after: z.number(),
  reasons: z.string(),
  kept: z.array(agent),
  dropped: z.array(agent),
  sentTo: z.array(agent),
  failures: count,
});

/** Who read whom this epoch ([receiver, sender] per delivered message), and the opinions it started from. */
export const interactionsRow = z.object({
  kind: z.literal('interactions'),
  epoch: count,
  pairs: z.array(z.tuple([agent, agent])),
  before: z.array(z.number()),
});

/** A message written in one epoch and delivered in the next. */
const pendingMessage = z.object({
  from: agent,
  to: agent,
  text: z.string(),
  /** Written by a key opinion leader (neutral elite signal): marked as such for the receiver. */
  leader: z.boolean(),
});

/** What an epoch hands to the next, besides the opinions and the network (tensors). */
export const agentState = z.object({
  kind: z.literal('state'),
  reasons: z.array(z.string()),
  pending: z.array(pendingMessage),
  /** Key opinion leaders (neutral elite signal), once chosen. */
  elites: z.array(agent),
});

export const polarizationRecord = z.discriminatedUnion('kind', [epochRow, agentLog, interactionsRow, agentState]);

export type EpochRow = z.infer<typeof epochRow>;
export type AgentLog = z.infer<typeof agentLog>;
export type InteractionsRow = z.infer<typeof interactionsRow>;
export type PendingMessage = z.infer<typeof pendingMessage>;
export type AgentState = z.infer<typeof agentState>;
export type PolarizationRecord = z.infer<typeof polarizationRecord>;

const reader = episodeReader(polarizationRecord);

/** The agent rows of stored episodes that fit, for the view (a row of an older, different shape is left out). */
export const agentLogsOf = (episodes: readonly Episode[]): AgentLog[] => episodes.flatMap((e) => reader.fitting(e).filter((r) => r.kind === 'agent'));
/** The stored rows a view of this lab leaves out (they do not fit its record schema), for UnfitRowsNote. */
export const polarizationUnfit = (episodes: readonly Episode[]) => reader.unfit(episodes);
