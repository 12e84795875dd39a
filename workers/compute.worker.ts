import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';
import { labRunApi } from '../src/labs/run-api';

const api = { ...computeApi, ...labRunApi };
export type ComputeWorkerApi = typeof api;

Comlink.expose(api);
