import type { LabName } from '../core/config/lab-definition';
import { LAB_MODULE_BY_NAME, type LabModules } from './registry';

/**
 * Each lab's typed runner, read from its module. Kept only for the scripts under organisms/ that still import it;
 * new code reads `LAB_MODULE_BY_NAME[lab].runner` (typed) or `openLabByName(lab)` (parses an untyped config).
 * Partial on purpose: a new lab needs no line here.
 * @deprecated use the lab's module from ./registry
 */
export const RUNNERS: Partial<{ [K in LabName]: LabModules[K]['runner'] }> = {
  synchrony: LAB_MODULE_BY_NAME.synchrony.runner,
  polarization: LAB_MODULE_BY_NAME.polarization.runner,
};
