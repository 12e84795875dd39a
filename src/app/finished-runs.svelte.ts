import { onMount } from 'svelte';
import type { LabName } from '../core/config/lab-definition';
import type { RunMeta } from '../core/runs/types';
import { runController, runStore } from './services';

/**
 * The finished runs of one lab, for a lab view's run picker: listed when the view mounts (the newest is opened),
 * and refreshed when a run of this page finishes (which is then opened). Call during a component's initialisation.
 */
export function finishedRuns(lab: LabName, open: (id: string) => void) {
  const state = $state<{ runs: RunMeta[]; error: string | null }>({ runs: [], error: null });
  async function refresh() {
    try {
      const all = await (await runStore()).listRuns();
      state.runs = all.filter((r) => r.lab === lab && r.status === 'done').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      state.error = null;
    } catch (e) {
      state.error = `The stored runs could not be listed: ${(e as Error).message}`;
    }
  }
  onMount(() => {
    void refresh().then(() => state.runs[0] && open(state.runs[0].id));
  });
  let shown = '';
  $effect(() => {
    const run = runController.active?.lab === lab ? runController.active : null;
    if (run?.status === 'done' && run.id !== shown) {
      shown = run.id;
      void refresh().then(() => open(run.id));
    }
  });
  return {
    get runs() {
      return state.runs;
    },
    get error() {
      return state.error;
    },
  };
}
