// worker_threads entry for opinions-worker.test.ts: the compute API behind comlink, as workers/compute.worker.ts
// exposes it in the browser, but over a Node MessagePort.
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { computeApi } from '../../src/core/compute-api';

Comlink.expose(computeApi, nodeEndpoint(parentPort!));
