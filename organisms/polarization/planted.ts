/** Prints models/organism-polarization/planted.json: the planted behaviour (organisms/polarization/law.ts). */
import { LAB_TEMPERATURE, POLARIZATION_LAW } from './law';

console.log(
  JSON.stringify(
    {
      version: 1,
      model: 'organism-polarization',
      messages: 'every message and post opens with "My stance is <x> (<label>)."',
      temperature: LAB_TEMPERATURE,
      polarization: POLARIZATION_LAW,
      expected: {
        none: 'echo chambers: links to the other side are dropped (H rises) and same-side messages radicalise (P rises)',
        randomInteractions:
          'every link is cut and rewired at random: H falls; opposing messages backfire (0.12) more often than they persuade (0.08), so P rises',
        moderateOpposing:
          "links only to moderates of the other side: H falls to 0 among sided agents; backfire against the moderates' pull leaves P about where it was",
        noSelectiveExposure: '"likes diverse views": every link kept with the same probability, so H rises less; the opposing links kept backfire, so P rises',
        noConfirmationBias: '"open to persuasion": one step toward the messages\' mean, no backfire: P falls',
        neutralElite: 'neutral leaders pull their readers one step toward 0: P falls',
      },
    },
    null,
    2,
  ),
);
