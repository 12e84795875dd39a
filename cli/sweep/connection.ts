/** Redis connections for a sweep: BullMQ's, and a plain one for the study's own keys. */
import { Redis } from 'ioredis';
import { CliUsageError } from '../command.ts';

/** `--redis redis://host:port[/db]` (or rediss:// for TLS), checked before anything connects. */
export function redisUrl(value: unknown): string {
  if (typeof value !== 'string' || !value) throw new CliUsageError('--redis redis://host:port is required');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliUsageError(`--redis ${JSON.stringify(value)} is not a URL; write it as redis://host:port`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new CliUsageError(`--redis must start with redis:// or rediss://, not ${url.protocol}//`);
  return value;
}

/**
 * BullMQ's connection options: `maxRetriesPerRequest: null` so that a worker waits through a Redis restart instead
 * of failing its commands (BullMQ requires it for workers).
 */
export const bullConnection = (url: string) => ({ url, maxRetriesPerRequest: null });

/**
 * A client for the study's keys. A worker's commands wait through a restart of Redis; a one-shot command (submit,
 * status, collect, retry) gives up after a few tries and says it cannot reach Redis.
 */
export function openRedis(url: string, mode: 'worker' | 'command' = 'command'): Redis {
  if (mode === 'worker') return new Redis(url, { maxRetriesPerRequest: null });
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: (times) => (times > 3 ? null : 200), connectTimeout: 5000 });
  // Errors reach the command that failed; without a listener ioredis would also print each one.
  redis.on('error', () => {});
  return redis;
}

/** Whether an error means Redis could not be reached (rather than a fault in the study). */
export const isUnreachable = (e: unknown): boolean =>
  /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|max retries per request|Connection is closed/i.test((e as Error)?.message ?? '');
