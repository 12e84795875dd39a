import type { LabDefinition, LabName } from '../core/config/lab-definition';
import { synchronyLab } from './synchrony/config';
import { similarityLab } from './similarity/config';
import { opinionsLab } from './opinions/config';
import { polarizationLab } from './polarization/config';

/** Every lab's config definition. Pure TypeScript: the app, the workers and the CLI all import this. */
export const LABS: readonly LabDefinition[] = [synchronyLab, similarityLab, opinionsLab, polarizationLab];

export function labByName(name: string): LabDefinition | undefined {
  return LABS.find((d) => d.name === (name as LabName));
}
