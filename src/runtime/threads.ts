/**
 * How many threads onnxruntime-web's wasm backend gets in the page. Threads need SharedArrayBuffer, which a browser
 * gives only to a cross-origin-isolated page (COOP and COEP headers, from the host or from the lab's service
 * worker). onnxruntime's own default is half the cores, up to four: one thread on a two-core machine, where the
 * second core then idles, so the lab asks for at least two whenever threads are possible.
 */
export function wasmThreadCount(isolated = Boolean(globalThis.crossOriginIsolated), cores = globalThis.navigator?.hardwareConcurrency ?? 1): number {
  if (!isolated) return 1;
  return Math.max(2, Math.min(4, Math.ceil(cores / 2)));
}
