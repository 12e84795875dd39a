/**
 * The one cancellation idiom: a host stops work with an AbortSignal, and the work stops by throwing CancelledError.
 * Pure TypeScript (no DOM, no worker API beyond the AbortController that Node and browsers both have), so runners,
 * core computations, workers and the CLI all share it.
 */

/** Thrown when work stops because its signal was aborted; hosts treat it as "cancelled", never as a failure. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** Throws CancelledError if `signal` has been aborted; no signal means the work cannot be cancelled. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * Whether `e` means "the work was cancelled". Checked by name as well as by class: an error thrown in a worker
 * crosses comlink as a plain Error with only its name and message kept, so `instanceof` fails on the page side; and
 * `signal.throwIfAborted()` or an aborted fetch throw a DOMException named 'AbortError'. The message is not looked
 * at, so an ordinary failure whose text happens to say "cancelled" still counts as a failure.
 */
export function isCancelledError(e: unknown): boolean {
  if (e instanceof CancelledError) return true;
  if (typeof e !== 'object' || e === null || !('name' in e)) return false;
  return e.name === 'CancelledError' || e.name === 'AbortError';
}

/**
 * Abort controllers by job id, for APIs exposed over comlink: an AbortSignal cannot be posted to a worker, so the
 * caller names each job and a cancel arrives as a separate message carrying that name.
 *
 * A cancel may reach the worker before its job starts (the Bring-your-own-data panel's cancel, pressed during the
 * α cross-validation call, is queued ahead of the ridge job it names), so `abort` of an unknown id is remembered and
 * that job starts already aborted. A host that must ignore such an early cancel calls `end(id)` before `start(id)`.
 */
export class JobAborts {
  private readonly controllers = new Map<string, AbortController>();

  /** The signal for job `id`: aborted already if a cancel for it came first. */
  start(id: string): AbortSignal {
    let c = this.controllers.get(id);
    if (!c) this.controllers.set(id, (c = new AbortController()));
    return c.signal;
  }

  /** Aborts job `id`, now if it runs, or as soon as it starts. */
  abort(id: string): void {
    let c = this.controllers.get(id);
    if (!c) this.controllers.set(id, (c = new AbortController()));
    c.abort();
  }

  /** Forgets job `id` once it has finished, failed or stopped, so the id can name a new job. */
  end(id: string): void {
    this.controllers.delete(id);
  }
}
