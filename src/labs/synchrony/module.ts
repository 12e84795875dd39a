import { defineLabModule } from '../lab-module';
import { synchronyLab } from './config';
import { synchronyRunner } from './runner';
import { synchronyRecord } from './records';
import { synchronyResults } from './results';

/**
 * The episodes of both presets, on the dialogue organism. Nine scenarios × one pairing × both orders = 18 episodes,
 * the effect in about a minute on WASM (24 took 75 s). Nine scenarios rather than three of them three times: the
 * library's first three scenarios have the names the organism garbles most. Over run seeds 1-6 the eleventh build's
 * passive-reader contrast reached 2 SE in 5 (its lags in all 6); the model card has the table. Seed 2 is one of them.
 */
const PRESET_EPISODES = {
  seed: 2,
  pairs: [{ a: 'organism-dialogue', b: 'organism-dialogue' }],
  scenarios: [
    'negotiation-used-bike',
    'cooperation-surprise-party',
    'competition-heirloom-piano',
    'persuasion-blood-drive',
    'norms-queue-jump',
    'negotiation-flea-market-lamp',
    'cooperation-lost-hikers',
    'competition-last-flat',
    'persuasion-speed-bumps',
  ],
  pairingsPerScenario: 1,
  maxUtterancesPerAgent: 4,
};

/** The Synchrony lab, declared once: the registry, the app, the compute worker and the CLI all read this. */
export const synchronyModule = defineLabModule({
  definition: synchronyLab,
  // Version 1: the meta, turn and judge rows as records.ts declares them.
  records: { schema: synchronyRecord, version: 1, migrations: {} },
  // The synchrony result's schema and version (results.ts).
  results: synchronyResults,
  runner: synchronyRunner,
  view: () => import('./SynchronyView.svelte'),
  description: {
    now: 'Two agents (the same or different models; the embedded toy model offline) play scenarios from a library of 40, every layer of both is recorded at every turn, and the A→B and B→A ridge maps and SyncR² ± SE fill in as episodes land, beside the passive-reader, lag and relationship controls. A judge can score each episode on the 7 SOTOPIA dimensions. With emotions on, each agent also writes a hidden feeling and action, and per-layer probes read the partner’s labels from an agent’s states. The ridge maps are shared out over a pool of workers, one per core.',
  },
  // One click from the home page: the paper's key comparison (the partner against a passive reader, and later turns)
  // on the dialogue organism, whose replies were planted to carry it (models/organism-dialogue). Without the judge:
  // its 36 verdicts took as long as the 18 episodes themselves (Node CPU: 95.6 s with it, 47.5 s without, the same
  // SyncR²), and a class waits for the synchrony figure. The judge is one tick away in the settings.
  presets: [
    {
      id: 'partner-vs-reader',
      title: 'Partner or bystander?',
      caption:
        'Look at the dots: how well agent A\'s inner state predicts what its partner B thinks next ("real"), against a passive reader who only listens, and against B three or five turns later (the lags). Real is clearly higher: the partner\'s next thought follows from what A was about to say. The model here was trained to behave this way on purpose (a "model organism"), so the lab can show that it finds a behaviour we know is there; real findings need real models.',
      tour: [
        'Press nothing yet: the run has started. Two agents play short negotiations, turn by turn; the live line shows what each one says. The first speaker proposes, the other echoes and counters, and sometimes says "Deal".',
        'When the run is done, find the plot "SyncR² per condition". Each dot says how well one agent\'s inner state predicts its partner\'s next one; 0 means not at all.',
        'Compare "real" with "passive": a passive reader hears the same words but never answers. The real partner is predicted better, by several error bars.',
        'Now compare "real" with the lags: A\'s state predicts B\'s next turn better than B\'s turns further away. The box "Planted, then measured" puts each number beside what was planted.',
        'Ask the class: why would planning a reply make two minds line up? Then open the Models page: this toy was trained to do it, and only real models can tell us whether people-like chatbots do.',
      ],
      config: {
        ...PRESET_EPISODES,
        controls: { passiveReader: true, byRelationship: true },
      },
    },
    {
      id: 'hidden-feelings',
      title: 'Hidden feelings',
      caption:
        "Each agent also writes how it feels on a line its partner never sees. A probe reads agent A's inner state just before it speaks and guesses how B will feel when it replies. Where the probe's line drops below the “freq.” baseline, A's state already holds B's coming feeling. The model was trained to behave this way on purpose (a \"model organism\"): real findings need real models.",
      tour: [
        'The run has started: two agents negotiate, and after every reply each writes a hidden line, "Feeling: …; Action: …". The transcript shows what they say; the hidden lines stay in the records.',
        'When the run is done, find the panel "Reading the partner\'s hidden feelings". Pick "emotion", then look at the plot for "the partner\'s reply (t + 1)".',
        'Each dot is a layer of the model. Lower means a better guess. The first dot, "freq.", only knows how often each feeling occurs. Dots below it mean that A\'s state tells us how B will feel.',
        'Read the table under the plots: "gain" is how much better the best layer guesses than the baseline, and "in SEs" how sure that is. The green line above says what was planted.',
        "Ask the class: B never saw A's hidden line, and A never saw B's. How can A's state know B's feeling? (Because what A is about to say decides how B will react.)",
      ],
      config: {
        // No passive reader and no judge, so that it runs in about half the first preset's time.
        ...PRESET_EPISODES,
        emotions: { enabled: true },
      },
    },
  ],
});
