import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';

Comlink.expose(computeApi);
