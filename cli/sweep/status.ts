/** A study's progress (sweep status): episodes stored, jobs by state, failures with their errors, workers and ETA. */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobIdOf, studyKeys, type Study } from './study.ts';
import type { WorkerStats } from './worker.ts';

export interface StudyStatus {
  study: string;
  name: string;
  lab: string;
  codeVersion: string;
  total: number;
  done: number;
  /** Episodes in jobs that failed for good (their attempts used up); `sweep retry` puts them back. */
  failed: number;
  jobs: Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'other', number>;
  failures: { job: string; episodes: number[]; attempts: number; error: string }[];
  workers: {
    worker: string;
    episodes: number;
    secondsPerEpisode: number | null;
    episodesPerMinute: number | null;
    lastSeenSecondsAgo: number;
    refused?: string;
  }[];
  /** Seconds left at the recent pace of the workers seen in the last minute; null when none is working. */
  etaSeconds: number | null;
}

export async function studyStatus(redis: Redis, queue: Queue, study: Study, now = Date.now()): Promise<StudyStatus> {
  const keys = studyKeys(study.id);
  const done = await redis.hlen(keys.records);
  const jobs: StudyStatus['jobs'] = { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0, other: 0 };
  const failures: StudyStatus['failures'] = [];
  for (let k = 0; k < study.jobs; k += 200) {
    const ids = Array.from({ length: Math.min(200, study.jobs - k) }, (_, i) => jobIdOf(study.id, k + i));
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    for (const [i, state] of states.entries()) {
      const key =
        state === 'waiting' || state === 'prioritized' || state === 'waiting-children'
          ? 'waiting'
          : state === 'active' || state === 'delayed' || state === 'completed' || state === 'failed'
            ? state
            : 'other';
      jobs[key]++;
      if (state === 'failed') {
        const job = await queue.getJob(ids[i]);
        if (job)
          failures.push({ job: ids[i], episodes: (job.data as { indices: number[] }).indices, attempts: job.attemptsMade, error: job.failedReason ?? '' });
      }
    }
  }
  const workers = Object.values(await redis.hgetall(keys.workers)).map((raw) => JSON.parse(raw) as WorkerStats);
  const rows = workers.map((w) => {
    const wall = (Date.parse(w.lastSeen) - Date.parse(w.startedAt)) / 1000;
    return {
      worker: w.worker,
      episodes: w.episodes,
      secondsPerEpisode: w.episodes ? w.episodeSeconds / w.episodes : null,
      episodesPerMinute: w.episodes && wall > 0 ? (60 * w.episodes) / wall : null,
      lastSeenSecondsAgo: Math.max(0, (now - Date.parse(w.lastSeen)) / 1000),
      ...(w.refused ? { refused: w.refused } : {}),
    };
  });
  const pace = rows.filter((r) => !r.refused && r.lastSeenSecondsAgo < 60 && r.episodesPerMinute).reduce((s, r) => s + (r.episodesPerMinute ?? 0), 0);
  const left = study.episodes - done;
  return {
    study: study.id,
    name: study.name,
    lab: study.lab,
    codeVersion: study.codeVersion,
    total: study.episodes,
    done,
    failed: failures.reduce((n, f) => n + f.episodes.length, 0),
    jobs,
    failures,
    workers: rows,
    etaSeconds: left === 0 ? 0 : pace > 0 ? (60 * left) / pace : null,
  };
}

export function formatStatus(s: StudyStatus): string {
  const pct = s.total ? Math.round((100 * s.done) / s.total) : 100;
  const eta = s.etaSeconds === null ? 'no worker is running it now' : s.etaSeconds === 0 ? 'finished' : `about ${formatSeconds(s.etaSeconds)} left`;
  const lines = [
    `study ${s.study}${s.name ? ` (${s.name})` : ''}: ${s.lab}, ${s.done} of ${s.total} episodes stored (${pct} %), ${eta}`,
    `jobs: ${s.jobs.waiting} waiting, ${s.jobs.active} running, ${s.jobs.delayed} waiting to retry, ${s.jobs.completed} done, ${s.jobs.failed} failed`,
  ];
  for (const f of s.failures) lines.push(`  failed ${f.job} (episodes ${f.episodes.map((i) => i + 1).join(', ')}, ${f.attempts} attempts): ${f.error}`);
  if (s.failures.length) lines.push(`  put them back with: npm run lab -- sweep retry ${s.study} --redis …`);
  for (const w of s.workers) {
    if (w.refused) lines.push(`  worker ${w.worker} refused the study: ${w.refused}`);
    else
      lines.push(
        `  worker ${w.worker}: ${w.episodes} episodes, ${w.secondsPerEpisode?.toFixed(2) ?? '–'} s each, ${w.episodesPerMinute?.toFixed(1) ?? '–'} a minute, last seen ${Math.round(w.lastSeenSecondsAgo)} s ago`,
      );
  }
  return lines.join('\n');
}

function formatSeconds(s: number): string {
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
