/**
 * How this project launches Chromium (Debian's package; headless; no network side channels). Shared by the browser
 * tests and the benchmarks, so that both measure the same browser. No vitest imports: bench/ runs it outside vitest.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const BASE_FLAGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** WebGPU in headless Chromium: SwiftShader, unless the machine has a real GPU that Chromium can use. */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan'];
