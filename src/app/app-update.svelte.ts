/**
 * The service worker's side in the page: it is registered once, and when a new version of the lab has been
 * downloaded it waits; the page then offers to reload into it (stored runs live in IndexedDB and are untouched).
 * Once the page has been idle for a while (no run going), it asks the worker to store what a lab needs offline.
 */
import { registerSW } from 'virtual:pwa-register';

class AppUpdate {
  /** A new version is downloaded and waiting. */
  ready = $state(false);
  /** The app is stored (precached) for offline use. */
  offlineReady = $state(false);
  /** onnxruntime's wasm and the default model: not yet, being stored, stored, or why not. */
  offlineModel = $state<'no' | 'storing' | 'yes' | { error: string }>('no');
  private update: ((reload?: boolean) => Promise<void>) | null = null;

  /**
   * `busy()`: whether a run is going. The worker is registered once the page has been idle for `registerAfterMs` (not
   * while a run starts: installing it competed with the run for the CPU, and a class's first click is often Show me),
   * and asked to store what a lab needs offline after `storeAfterMs` more of idleness.
   */
  start(busy: () => boolean, { registerAfterMs = 3_000, storeAfterMs = 30_000 } = {}): void {
    if (!('serviceWorker' in navigator)) return;
    const whenIdle = (ms: number, then: () => void) => setTimeout(() => (busy() || document.visibilityState !== 'visible' ? whenIdle(ms, then) : then()), ms);
    whenIdle(registerAfterMs, () => {
      this.update = registerSW({
        immediate: true,
        onNeedRefresh: () => (this.ready = true),
        onOfflineReady: () => (this.offlineReady = true),
      });
      whenIdle(storeAfterMs, () => void this.storeForOffline());
    });
  }

  /** Asks the service worker to store onnxruntime's wasm and the default model, so that a lab runs offline. */
  async storeForOffline(): Promise<void> {
    if (this.offlineModel === 'storing' || this.offlineModel === 'yes') return;
    const worker = (await navigator.serviceWorker.ready).active;
    if (!worker) return;
    this.offlineModel = 'storing';
    const { port1, port2 } = new MessageChannel();
    const answer = new Promise<{ ok: boolean; error?: string }>((done) => (port1.onmessage = (e) => done(e.data)));
    worker.postMessage({ type: 'STORE_OFFLINE' }, [port2]);
    const result = await answer;
    this.offlineModel = result.ok ? 'yes' : { error: result.error ?? 'unknown' };
  }

  /** Activates the waiting version and reloads the page into it. */
  apply(): void {
    void this.update?.(true);
  }
}

export const appUpdate = new AppUpdate();
