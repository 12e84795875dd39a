// One worker of the page's grid pool (workers/grid-pool.ts), spawned by the compute worker.
import * as Comlink from 'comlink';
import { createGridWorkerApi } from './grid-worker-api';

Comlink.expose(createGridWorkerApi());
