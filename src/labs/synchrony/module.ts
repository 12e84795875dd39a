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
  // One click from the home page: the paper's key comparison (the partner against a passive reader), with the judge.
  presets: [
    {
      id: 'partner-vs-reader',
      title: 'Partner or bystander?',
      caption:
        'Look at the bars: how well agent A\'s inner state predicts what its partner B thinks next, against a passive reader who only listens. In the paper the partner is predicted far better. The embedded toy model does not plan its replies, so here both stay near zero: it shows how the test works, not the effect.',
      tour: [
        'Press nothing yet: the run has started. Two agents play a negotiation, turn by turn; the live line shows what each one says.',
        'When the run is done, find the plot "SyncR² per condition". Each dot says how well one agent\'s inner state predicts its partner\'s next one.',
        'Compare "real" with "passive": a passive reader hears the same words but never answers. In the paper, the real partner is predicted far better.',
        'Here every dot sits near zero: this toy model does not plan its replies. Ask the class what a model would need to do for "real" to rise.',
      ],
      config: {
        scenarios: ['negotiation-used-bike', 'negotiation-flea-market-lamp'],
        maxUtterancesPerAgent: 4,
        controls: { passiveReader: true, byRelationship: true },
        judge: { enabled: true, model: 'tiny-social' },
      },
    },
  ],
});
