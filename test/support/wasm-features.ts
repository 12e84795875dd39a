// vitest setup of the unit and runtime projects: the kernels the CLI and the page run (cli/wasm-features.ts).
import '../../cli/wasm-features.ts';
