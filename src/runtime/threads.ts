/**
 * How many threads onnxruntime-web's wasm backend gets in the page: its own rule, written out so that the status bar
 * and the runtime agree. Threads need SharedArrayBuffer, which a browser gives only to a cross-origin-isolated page
 * (COOP and COEP headers, from the host or from the lab's service worker); then half the cores, up to four (one on a
 * two-core machine). Asking for more was tried: with two threads on two cores, the Similarity preset's four model
 * workers each started a thread pool, and its effect figure took 76 s instead of 38 s.
 */
export function wasmThreadCount(isolated = Boolean(globalThis.crossOriginIsolated), cores = globalThis.navigator?.hardwareConcurrency ?? 1): number {
  if (!isolated) return 1;
  return Math.max(1, Math.min(4, Math.ceil(cores / 2)));
}
