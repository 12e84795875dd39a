import { WorkerHost } from '../../../app/worker-host';
import type { ComputeWorkerApi } from '../../../../workers/compute.worker';

/**
 * A compute worker of the Synchrony view's own, for the analysis and for imported states. `synchronyAnalysis` is
 * one synchronous call, and it can run long (measured in Node under load: 2.8 s for 20 tiny-social episodes, 7.8 s
 * for 40, 30 s for 20 episodes of a 30-layer × 576 model, α by cross-validation). On the page's shared compute
 * worker the heartbeat (6 s) would declare the worker dead and restart it, and every other call (run summaries,
 * correlations) would queue behind it. Here the heartbeat allows 15 minutes; an uncaught error still restarts it.
 */
let host: WorkerHost<ComputeWorkerApi> | null = null;
let users = 0;

export function acquireAnalysisHost(): WorkerHost<ComputeWorkerApi> {
  users++;
  return (host ??= new WorkerHost<ComputeWorkerApi>(
    () => new Worker(new URL('../../../../workers/compute.worker.ts', import.meta.url), { type: 'module', name: 'synchrony-analysis' }),
    { deadAfterMs: 15 * 60_000 },
  ));
}

/** Stops the worker when the last view using it goes away (work in flight is abandoned). */
export function releaseAnalysisHost(): void {
  users = Math.max(0, users - 1);
  if (!users && host) {
    host.terminate();
    host = null;
  }
}
