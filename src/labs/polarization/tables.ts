import { toCsv } from '../../core/csv';
import type { EchoTable } from '../../core/polarization/metrics';
import type { AgentLog, EpochRow } from './llm-runner';

/** The stored `polarization` result (classic and LLM runs; the last four only for LLM agents). */
export interface PolarizationResult {
  P0: number;
  PT: number;
  H0: number;
  HT: number;
  finalDistribution: number[];
  epochs: number;
  series: EpochRow[];
  echo?: Omit<EchoTable, 'records'>;
  calls?: number;
  failures?: number;
  messages?: number;
  /** LLM agents: whether their stance updates and yes/no answers were free text or constrained by a grammar. */
  decoding?: 'free' | 'constrained';
}

export function seriesCsv(series: readonly EpochRow[]): string {
  const head = [
    'epoch',
    'P',
    'H',
    'rewires',
    'updating',
    'messages_sent',
    'failures',
    'calls',
    'intervention',
    'count_m2',
    'count_m1',
    'count_0',
    'count_p1',
    'count_p2',
  ];
  return toCsv(
    head,
    series.map((r) => [r.epoch, r.P, r.H, r.rewires, r.updating, r.messagesSent, r.failures, r.calls, r.intervention, ...r.distribution]),
  );
}

export function agentsCsv(logs: readonly AgentLog[]): string {
  const head = ['epoch', 'agent', 'received', 'stance_before', 'stance_after', 'kept', 'dropped', 'wrote_to', 'failures', 'reasons'];
  return toCsv(
    head,
    logs.map((l) => [l.epoch, l.agent, l.received, l.before, l.after, l.kept.join(' '), l.dropped.join(' '), l.sentTo.join(' '), l.failures, l.reasons]),
  );
}
