import type { LabRunner } from '../core/runs/runner';
import type { LabName } from '../core/config/lab-definition';
import { opinionsRunner } from './opinions/runner';
import { polarizationRunner } from './polarization/runner';
import { similarityRunner } from './similarity/runner';
import { synchronyRunner } from './synchrony/runner';

/** Runners by lab. A lab without one yet says so in its page and in `lab run`. */
export const RUNNERS: Partial<Record<LabName, LabRunner<never>>> = {
  synchrony: synchronyRunner as LabRunner<never>,
  similarity: similarityRunner as LabRunner<never>,
  opinions: opinionsRunner as LabRunner<never>,
  polarization: polarizationRunner as LabRunner<never>,
};
