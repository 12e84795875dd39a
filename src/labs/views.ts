import type { Component } from 'svelte';
import type { LabName } from '../core/config/lab-definition';

/** Props every lab view receives from the lab page: the validated config and a way to change it (and the link). */
export interface LabViewProps {
  config: Record<string, unknown>;
  setConfig: (next: Record<string, unknown>) => void;
}

/** A lab's own view, loaded on demand so the home page stays light. Labs without one show only the settings form. */
export const LAB_VIEWS: Partial<Record<LabName, () => Promise<{ default: Component<LabViewProps> }>>> = {
  opinions: () => import('./opinions/OpinionsView.svelte'),
  synchrony: () => import('./synchrony/SynchronyView.svelte'),
  similarity: () => import('./similarity/SimilarityView.svelte'),
  polarization: () => import('./polarization/PolarizationView.svelte'),
};
