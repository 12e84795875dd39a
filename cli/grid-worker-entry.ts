// worker_threads entry of Node's grid pool (cli/grid-pool-node.ts): the same grid worker API as the page's
// workers/grid.worker.ts, over a Node MessagePort.
import './wasm-features.ts';
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { createGridWorkerApi } from '../workers/grid-worker-api.ts';

Comlink.expose(createGridWorkerApi(), nodeEndpoint(parentPort!));
