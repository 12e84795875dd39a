import type { ScenarioDef } from '../schema';

/** Competition: only one of them can have it. Original text for this project. */
export const COMPETITION: ScenarioDef[] = [
  {
    id: 'competition-heirloom-piano',
    title: 'The old piano',
    category: 'competition',
    text: 'Two members of a family are clearing a late aunt’s house, and both want her upright piano.',
    goals: [
      'Get the piano for your home; offer to give up the aunt’s jewellery in return.',
      'Get the piano; you learned to play on it and plan to teach on it.',
    ],
    facts: [
      { text: 'The aunt left no written wishes about the piano.' },
      { text: 'A dealer told you the piano is worth about 4,000 euros.', visibleTo: 0 },
    ],
    relationship: 5,
    pairings: [
      ['amara-okafor', 'ngozi-okafor'],
      ['erik-lindqvist', 'astrid-lindqvist'],
      ['piotr-nowak', 'zofia-nowak'],
      ['samir-haddad', 'leila-haddad'],
      ['hiroshi-tanaka', 'yumi-tanaka'],
      ['lucia-moreno', 'diego-moreno'],
    ],
  },
  {
    id: 'competition-last-flat',
    title: 'The last affordable flat',
    category: 'competition',
    text: 'Two strangers wait in a hallway to view the same cheap flat; the agent said the first good application wins.',
    goals: [
      'Get the other person to give up on this flat.',
      'Find out what the other person offers, and get the flat yourself.',
    ],
    facts: [
      { text: 'Forty people asked about this flat online.' },
      { text: 'You know the agent from school.', visibleTo: 1 },
    ],
    relationship: 0,
    pairings: [
      ['tomas-herrera', 'sofia-rossi'],
      ['sam-taylor', 'elena-popescu'],
      ['kai-andersen', 'tariq-rahman'],
      ['chidi-okafor', 'yumi-tanaka'],
      ['ben-carter', 'leila-haddad'],
      ['amara-okafor', 'mateo-silva'],
    ],
  },
  {
    id: 'competition-festival-pitch',
    title: 'One spot at the festival',
    category: 'competition',
    text: 'Two food-truck owners meet in the queue to pitch to a summer festival that has one food spot left.',
    goals: [
      'Persuade the other to apply for the smaller autumn market instead.',
      'Get the festival spot, and learn what the other plans to cook.',
    ],
    facts: [
      { text: 'The festival expects 20,000 visitors over two days.' },
      { text: 'Your truck failed a gas safety check last week.', visibleTo: 0 },
    ],
    relationship: 0,
    pairings: [
      ['samir-haddad', 'lucia-moreno'],
      ['arjun-mehta', 'mateo-silva'],
      ['rosa-delgado', 'joseph-mwangi'],
      ['jonas-weber', 'isabel-cruz'],
      ['mei-lin', 'ivan-petrov'],
    ],
  },
  {
    id: 'competition-chess-final',
    title: 'Before the club final',
    category: 'competition',
    text: 'Two players chat ten minutes before the final of their chess club’s yearly tournament.',
    goals: [
      'Get the other to agree to a quick draw, which is enough for you to win the title.',
      'Refuse a draw and unsettle the other before the game.',
    ],
    facts: [
      { text: 'The first player leads by half a point.' },
      { text: 'You barely slept last night.', visibleTo: 0 },
    ],
    relationship: 1,
    pairings: [
      ['kwame-mensah', 'ben-carter'],
      ['ruth-abrams', 'priya-raman'],
      ['hiroshi-tanaka', 'leila-haddad'],
      ['viktor-horvath', 'kwame-mensah'],
      ['zofia-nowak', 'alex-kim'],
      ['ben-carter', 'ruth-abrams'],
    ],
  },
  {
    id: 'competition-scholarship',
    title: 'One scholarship, two applicants',
    category: 'competition',
    text: 'Two students in the same course both apply for the one travel scholarship the department offers this year.',
    goals: [
      'Find out the other’s essay topic without revealing your own.',
      'Convince the other that their chances are low so they withdraw.',
    ],
    facts: [
      { text: 'Applications close on Friday.' },
      { text: 'A professor told you the committee prefers field projects.', visibleTo: 1 },
    ],
    relationship: 1,
    pairings: [
      ['leila-haddad', 'diego-moreno'],
      ['sam-taylor', 'leila-haddad'],
      ['diego-moreno', 'kai-andersen'],
      ['kai-andersen', 'sam-taylor'],
      ['tomas-herrera', 'leila-haddad'],
    ],
  },
  {
    id: 'competition-team-lead',
    title: 'The team-lead job',
    category: 'competition',
    text: 'Two colleagues who both applied to lead their team meet at the coffee machine the day before interviews.',
    goals: [
      'Get the other to say they would support you as lead.',
      'Keep your plans private and learn what the other will promise the boss.',
    ],
    facts: [
      { text: 'The boss said she wants someone who can cut costs.' },
      { text: 'You have heard the other was late on the last project.', visibleTo: 0 },
    ],
    relationship: 2,
    pairings: [
      ['oliver-grant', 'lena-fischer'],
      ['priya-raman', 'chidi-okafor'],
      ['nadia-benali', 'tariq-rahman'],
      ['rosa-delgado', 'ivan-petrov'],
      ['zofia-nowak', 'yusuf-demir'],
      ['maya-goldberg', 'elena-popescu'],
    ],
  },
  {
    id: 'competition-bake-off',
    title: 'The village bake-off',
    category: 'competition',
    text: 'Two friends both entered the village bake-off, and there is only one oven slot left on the morning of the contest.',
    goals: [
      'Get the early oven slot for your cake.',
      'Get the early slot too, or a promise of help with decorating in return.',
    ],
    facts: [
      { text: 'The late slot ends twenty minutes before judging.' },
      { text: 'Your cake needs an hour to cool before icing.', visibleTo: 0 },
    ],
    relationship: 3,
    pairings: [
      ['grace-oneill', 'sofia-rossi'],
      ['samir-haddad', 'kwame-mensah'],
      ['isabel-cruz', 'hana-svoboda'],
      ['ngozi-okafor', 'fatima-diallo'],
      ['astrid-lindqvist', 'ruth-abrams'],
      ['ivan-petrov', 'marcus-johnson'],
    ],
  },
  {
    id: 'competition-board-game-rivalry',
    title: 'The loser does the dishes',
    category: 'competition',
    text: 'A couple keeps a yearly board-game rivalry; the loser does the dishes for a month, and they argue over the rules.',
    goals: [
      'Get your house rule accepted: trades between players are allowed.',
      'Play strictly by the rulebook, with no trades.',
    ],
    facts: [
      { text: 'The score so far is two wins each.' },
      { text: 'You win most games that allow trading.', visibleTo: 0 },
    ],
    relationship: 4,
    pairings: [
      ['ben-carter', 'hana-svoboda'],
      ['marcus-johnson', 'elena-popescu'],
      ['kwame-mensah', 'ruth-abrams'],
      ['arjun-mehta', 'mei-lin'],
      ['alex-kim', 'priya-raman'],
      ['rafael-moreno', 'lucia-moreno'],
    ],
  },
];
