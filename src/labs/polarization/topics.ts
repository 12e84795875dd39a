import type { PolarizationTopic, StanceValue } from '../../core/prompts/polarization';

/** A topic of the lab: the proposition, and the reasons an agent starts with at each stance (written by the lab). */
export interface LabTopic extends PolarizationTopic {
  reasons: Record<StanceValue, string>;
}

export const TOPICS: Record<string, LabTopic> = {
  partisan: {
    name: 'party alignment',
    statement: 'The Progressive Party should win the next national election (rather than the Traditional Party)',
    reasons: {
      [-2]: 'The Traditional Party protects jobs, families and low taxes, and the other side would wreck that.',
      [-1]: 'I usually trust the Traditional Party on the economy, though some of its people worry me.',
      0: 'Both parties have good and bad ideas, and I decide issue by issue.',
      1: 'The Progressive Party has better plans for health care and schools, though it spends a lot.',
      2: 'The Progressive Party is the only one that takes fairness and the climate seriously.',
    },
  },
  gunControl: {
    name: 'gun control',
    statement: 'Stricter gun control laws',
    reasons: {
      [-2]: 'Owning a gun is a basic right, and stricter laws only disarm law-abiding people.',
      [-1]: 'Some checks make sense, but most new laws would burden responsible owners.',
      0: 'I see good arguments on both sides and have not made up my mind.',
      1: 'Background checks and waiting periods would prevent some deaths without banning guns.',
      2: 'Too many people die from guns; we need much stricter laws now.',
    },
  },
  climate: {
    name: 'carbon tax',
    statement: 'A national tax on carbon emissions',
    reasons: {
      [-2]: 'A carbon tax would raise prices for everyone and send jobs abroad.',
      [-1]: 'Climate matters, but a tax hits poor families hardest; there are better tools.',
      0: 'I am not sure whether a tax or other policies would work better.',
      1: 'Pricing carbon is an efficient way to cut emissions if the money is returned to people.',
      2: 'Emissions must fall fast, and a carbon tax is the strongest signal we have.',
    },
  },
  immigration: {
    name: 'immigration',
    statement: 'Raising the yearly number of immigrants the country admits',
    reasons: {
      [-2]: 'The country cannot absorb more newcomers; wages and housing already suffer.',
      [-1]: 'Some immigration is good, but the current level is high enough.',
      0: 'It depends on the details, and I do not know enough to choose.',
      1: 'An ageing country needs more workers, and immigrants start many businesses.',
      2: 'Welcoming more people is both right and good for the economy.',
    },
  },
  nuclear: {
    name: 'nuclear power',
    statement: 'Building new nuclear power plants',
    reasons: {
      [-2]: 'Nuclear waste stays dangerous for thousands of years, and accidents are catastrophic.',
      [-1]: 'Nuclear is costly and slow to build; wind and solar are cheaper now.',
      0: 'Nuclear has real benefits and real risks, and I am undecided.',
      1: 'Nuclear gives steady low-carbon power when the wind does not blow.',
      2: 'We cannot cut emissions fast enough without a lot of new nuclear power.',
    },
  },
  uniforms: {
    name: 'school uniforms',
    statement: 'Requiring school uniforms in public schools',
    reasons: {
      [-2]: 'Uniforms crush self-expression and cost families money they do not have.',
      [-1]: 'Uniforms are mostly harmless but I doubt they help learning.',
      0: 'I do not think it matters much either way.',
      1: 'Uniforms reduce bullying about clothes and make mornings easier.',
      2: 'Uniforms build a sense of belonging and remove a daily source of pressure.',
    },
  },
};

export const TOPIC_IDS = Object.keys(TOPICS);

export function topicById(id: string): LabTopic | undefined {
  return Object.prototype.hasOwnProperty.call(TOPICS, id) ? TOPICS[id] : undefined;
}
