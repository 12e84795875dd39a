import { defineLabModule } from '../lab-module';
import { synchronyLab } from './config';
import { synchronyRunner } from './runner';

/** The Synchrony lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const synchronyModule = defineLabModule({
  definition: synchronyLab,
  runner: synchronyRunner,
  view: () => import('./SynchronyView.svelte'),
  description: {
    now: 'Two agents (the same or different models; the embedded toy model offline) play scenarios from a library of 40, every layer of both is recorded at every turn, and the A→B and B→A ridge maps and SyncR² ± SE fill in as episodes land, beside the passive-reader, lag and relationship controls. A judge can score each episode on the 7 SOTOPIA dimensions.',
    coming: [
      'Emotion and action decoding from the recorded states (the method note\'s optional extension).',
      'Several compute workers for the ridge maps of large hub models.',
    ],
  },
  // Named starting points with a "what to notice" caption; none yet.
  presets: [],
});
