// The one cancellation idiom (src/core/cancel.ts): CancelledError, throwIfAborted, isCancelledError, JobAborts.
import { describe, expect, it } from 'vitest';
import { CancelledError, isCancelledError, JobAborts, throwIfAborted } from '../../src/core/cancel';

/** What comlink makes of an error thrown in a worker: a plain Error with the name and message copied over. */
function acrossComlink(e: Error): Error {
  return Object.assign(new Error(e.message), { name: e.name, stack: e.stack });
}

describe('cancellation', () => {
  it('throwIfAborted throws CancelledError only for an aborted signal', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(() => throwIfAborted(AbortSignal.abort())).toThrow(CancelledError);
    const e = new CancelledError();
    expect(e.name).toBe('CancelledError');
    expect(e.message).toBe('cancelled');
  });

  it('isCancelledError knows a cancel by class or by name, never by message', () => {
    expect(isCancelledError(new CancelledError())).toBe(true);
    const remote = acrossComlink(new CancelledError());
    expect(remote).not.toBeInstanceOf(CancelledError);
    expect(isCancelledError(remote)).toBe(true);
    const signal = AbortSignal.abort();
    let thrown: unknown;
    try {
      signal.throwIfAborted();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DOMException);
    expect(isCancelledError(thrown)).toBe(true);
    expect(isCancelledError(new Error('the job was cancelled by the server'))).toBe(false);
    expect(isCancelledError('cancelled')).toBe(false);
    expect(isCancelledError(null)).toBe(false);
    expect(isCancelledError(undefined)).toBe(false);
  });

  it('JobAborts aborts a job by id, also when the cancel comes first, and forgets it at the end', () => {
    const jobs = new JobAborts();
    const a = jobs.start('a');
    const b = jobs.start('b');
    expect(a.aborted).toBe(false);
    jobs.abort('a');
    expect(a.aborted).toBe(true);
    expect(b.aborted).toBe(false);
    jobs.end('a');
    // The id is free again: a new job under it starts with a fresh signal.
    expect(jobs.start('a').aborted).toBe(false);
    jobs.end('a');
    // A cancel that overtakes its job (sent while an earlier call still ran) stops that job when it starts.
    jobs.abort('c');
    expect(jobs.start('c').aborted).toBe(true);
    jobs.end('c');
    expect(jobs.start('c').aborted).toBe(false);
    jobs.end('b');
    jobs.end('c');
  });
});
