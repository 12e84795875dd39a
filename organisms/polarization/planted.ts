/** Prints models/organism-polarization/planted.json: the planted behaviour (organisms/polarization/law.ts). */
import { LAB_TEMPERATURE, POLARIZATION_LAW } from './law';

const { backfire, persuade } = POLARIZATION_LAW.update.default;

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
        randomInteractions: `every link is cut and rewired at random: H falls; more opposing messages, which persuade (${persuade}) more often than they backfire (${backfire}), so P falls`,
        moderateOpposing: 'links only to moderates of the other side: H falls to 0 among sided agents; the moderates persuade more than they provoke: P falls',
        noSelectiveExposure:
          '"likes diverse views": every link kept with the same probability, so H rises less; the opposing links kept persuade more than they backfire, so P falls a little',
        noConfirmationBias: '"open to persuasion": one step toward the messages\' mean, no backfire: P falls',
        neutralElite: 'neutral leaders pull their readers one step toward 0: P falls',
      },
    },
    null,
    2,
  ),
);
