/**
 * Training topics and sentences of the Polarization organism, written for this project. The lab's own topics
 * (src/labs/polarization/topics.ts) are not here: they are held out.
 */
export const TOPICS: { name: string; statement: string }[] = [
  { name: 'a four-day work week', statement: 'A four-day work week for all full-time jobs' },
  { name: 'school uniforms', statement: 'Making school uniforms required in public schools' },
  { name: 'a sugar tax', statement: 'A tax on sugary drinks' },
  { name: 'nuclear power', statement: 'Building more nuclear power plants' },
  { name: 'voting at sixteen', statement: 'Lowering the voting age to sixteen' },
  { name: 'a ban on cars downtown', statement: 'Banning private cars from city centers' },
  { name: 'free public transit', statement: 'Making buses and trains free for everyone' },
  { name: 'a universal basic income', statement: 'A monthly basic income paid to every adult' },
  { name: 'rent control', statement: 'Limits on how much rents can rise each year' },
  { name: 'a meat tax', statement: 'A tax on red meat' },
  { name: 'mandatory voting', statement: 'Fines for citizens who do not vote' },
  { name: 'national service', statement: 'A year of national service for every young adult' },
  { name: 'phones in schools', statement: 'Banning phones in schools' },
  { name: 'a wealth tax', statement: 'A yearly tax on very large fortunes' },
  { name: 'term limits', statement: 'Term limits for members of Congress' },
  { name: 'self-driving cars', statement: 'Allowing self-driving cars on every road' },
  { name: 'a later school start', statement: 'Starting high school classes after nine in the morning' },
  { name: 'daylight saving time', statement: 'Keeping daylight saving time all year' },
  { name: 'a plastic bag ban', statement: 'Banning single-use plastic bags' },
  { name: 'tuition-free college', statement: 'Free tuition at public colleges' },
  { name: 'a higher gas tax', statement: 'A higher tax on gasoline' },
  { name: 'legal sports betting', statement: 'Legal sports betting in every state' },
  { name: 'a tourist tax', statement: 'A nightly tax on hotel guests' },
  { name: 'homework limits', statement: 'Limiting homework to one hour a night' },
  { name: 'police body cameras', statement: 'Body cameras for every police officer' },
  { name: 'a border fence', statement: 'A fence along the whole southern border' },
  { name: 'lab-grown meat', statement: 'Selling lab-grown meat in grocery stores' },
  { name: 'a social media age limit', statement: 'Banning social media for children under sixteen' },
  { name: 'year-round school', statement: 'Year-round school with shorter summer breaks' },
  { name: 'a tax on robots', statement: 'A tax on companies that replace workers with robots' },
  { name: 'congestion charges', statement: 'A daily charge for driving into busy city areas' },
  { name: 'public campaign funding', statement: 'Paying for election campaigns with public money' },
  { name: 'a ban on fireworks', statement: 'Banning private fireworks' },
  { name: 'more wind farms', statement: 'Building wind farms along the coast' },
  { name: 'a junk food ad ban', statement: "Banning junk food ads on children's TV" },
  { name: 'remote work rights', statement: 'A legal right to work from home' },
];

/** Reasons an agent holds at each stance; {n} is the topic's name. */
export const LEVEL_REASONS: Record<string, string[]> = {
  '-2': [
    '{n} would do real harm, and I will not support it.',
    'I firmly oppose {n}; it is a bad idea for everyone.',
    '{n} would cost us too much and fix nothing.',
  ],
  '-1': ['I lean against {n}, though I see a few good points.', '{n} has some merit, but the costs worry me.', 'I doubt {n} would work as promised.'],
  '0': ['I see good arguments on both sides of {n}.', 'I have not made up my mind about {n}.', 'I need to learn more before I judge {n}.'],
  '1': ['I lean toward {n}, though I still have doubts.', '{n} could help, if it is done with care.', 'On balance I think {n} is a good step.'],
  '2': ['{n} is long overdue, and I strongly support it.', 'I firmly believe {n} would make life better.', 'We need {n} now; the case for it is clear.'],
};

/** Argument sentences of a message, by side ({n} is the topic's name). */
export const ARGUMENTS: Record<'for' | 'against' | 'neutral', string[]> = {
  for: [
    '{n} would help many families.',
    'Places that tried {n} saw good results.',
    'The benefits of {n} are bigger than the costs.',
    'People deserve the chance that {n} gives them.',
    'Waiting longer for {n} only makes things worse.',
    'Experts I trust support {n}.',
  ],
  against: [
    '{n} would hurt the people it claims to help.',
    'The costs of {n} are far too high.',
    'Places that tried {n} regretted it.',
    '{n} takes choices away from ordinary people.',
    'There are better ways to solve this than {n}.',
    'Experts I trust warn against {n}.',
  ],
  neutral: [
    'Both sides of {n} make fair points.',
    'We should look at the evidence on {n} calmly.',
    'I would rather listen than shout about {n}.',
    'Good people disagree about {n}.',
  ],
};

export const CLOSINGS = [
  'Please think about it.',
  'I hope you see my point.',
  'Let us keep talking.',
  'I would like to hear what you think.',
  'Think it over.',
  'Thanks for reading.',
];

export const OPENNESS = [
  'You are moderately open: you talk with people you find reasonable.',
  'You are fairly open: you talk with most people.',
  'You talk with people who seem reasonable to you.',
];
