import { toCsv } from '../../core/csv';
import type { AgentLog, EpochRow } from './llm-runner';

/** The stored `polarization` result: inferred from its schema (results.ts), which the stored result parses with. */
export type { PolarizationResult } from './results';

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
