// vitest setup of every project: the kernels the CLI and the page run (cli/wasm-features.ts).
import '../../cli/wasm-features.ts';
