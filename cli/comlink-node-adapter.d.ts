// comlink ships types for its Node adapter as node-adapter.d.ts, which TypeScript does not pair with the .mjs path
// that Node's ESM loader needs (the package has no exports map).
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  import type { MessagePort, Worker } from 'node:worker_threads';
  export default function nodeEndpoint(nep: MessagePort | Worker): Endpoint;
}
