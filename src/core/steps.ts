/**
 * Layer-stepped computations: long grids are generators that yield {done, total} after each layer. A driver runs
 * them synchronously (CLI, tests) or asynchronously, yielding to the event loop between steps so that a worker can
 * receive a cancel message and forward progress.
 */

import { throwIfAborted } from './cancel';

/** Long computations are generators that yield after each layer, so that a driver can report and cancel. */
export interface Progress {
  done: number;
  total: number;
}

/** Runs a layer-stepped computation to the end, synchronously, checking `signal` and reporting between steps. */
export function runSteps<T>(steps: Generator<Progress, T>, opts: { onProgress?: (done: number, total: number) => unknown; signal?: AbortSignal } = {}): T {
  for (;;) {
    throwIfAborted(opts.signal);
    const r = steps.next();
    if (r.done) return r.value;
    opts.onProgress?.(r.value.done, r.value.total);
  }
}

let channel: { port: MessagePort; waiting: Array<() => void> } | null = null;

/**
 * One macrotask turn, so that messages queued for this worker (a comlink cancel) are handled. Node: setImmediate.
 * Browsers: a MessageChannel ping, because nested setTimeout(0) is clamped to 4 ms.
 */
function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  if (!channel) {
    const ch = new MessageChannel();
    const waiting: Array<() => void> = [];
    ch.port1.onmessage = () => waiting.shift()?.();
    channel = { port: ch.port2, waiting };
  }
  const c = channel;
  return new Promise((resolve) => {
    c.waiting.push(resolve);
    c.port.postMessage(0);
  });
}

/**
 * The same, asynchronously: it yields to the event loop between steps, so that a worker can receive a cancel
 * message (through comlink) while a grid runs. `signal` is checked between steps; a worker API gets it from JobAborts,
 * aborted when the cancel message for the job arrives.
 */
export async function runStepsAsync<T>(
  steps: Generator<Progress, T>,
  opts: { onProgress?: (done: number, total: number) => unknown; signal?: AbortSignal } = {},
): Promise<T> {
  for (;;) {
    await yieldToEventLoop();
    throwIfAborted(opts.signal);
    const r = steps.next();
    if (r.done) return r.value;
    opts.onProgress?.(r.value.done, r.value.total);
  }
}
