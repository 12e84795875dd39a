import type { ScenarioDef } from '../schema';

/** Social norms: an everyday rule is bent, and someone has to say so. Original text for this project. */
export const SOCIAL_NORMS: ScenarioDef[] = [
  {
    id: 'norms-queue-jump',
    title: 'Cutting the queue',
    category: 'social-norms',
    text: 'In a long pharmacy queue, one person walks past everyone and stands right at the counter in front of the other.',
    goals: [
      'Get served first without an argument; your parking ticket runs out in five minutes.',
      'Get the person to go to the back of the queue, politely but firmly.',
    ],
    facts: [
      { text: 'Twelve people are waiting, some of them elderly.' },
      { text: 'Your child is waiting in the car with a fever.', visibleTo: 0 },
    ],
    relationship: 0,
    pairings: [
      ['oliver-grant', 'ruth-abrams'],
      ['jonas-weber', 'fatima-diallo'],
      ['mei-lin', 'rosa-delgado'],
      ['yusuf-demir', 'astrid-lindqvist'],
      ['lena-fischer', 'kwame-mensah'],
      ['chidi-okafor', 'grace-oneill'],
    ],
  },
  {
    id: 'norms-found-wallet',
    title: 'The returned wallet',
    category: 'social-norms',
    text: 'Someone found a wallet on a tram and meets its owner at a café to return it; the owner thinks cash is missing.',
    goals: [
      'Return the wallet and leave with your honesty beyond doubt.',
      'Find out what happened to the 50 euros you think was inside.',
    ],
    facts: [
      { text: 'The wallet held cards, a photo and 20 euros when it was found.' },
      { text: 'You may have spent the 50 euros yourself that morning.', visibleTo: 1 },
    ],
    relationship: 0,
    pairings: [
      ['tomas-herrera', 'oliver-grant'],
      ['sam-taylor', 'jonas-weber'],
      ['kwame-mensah', 'lena-fischer'],
      ['aiyana-begay', 'yusuf-demir'],
      ['ivan-petrov', 'camille-dubois'],
      ['sofia-rossi', 'arjun-mehta'],
    ],
  },
  {
    id: 'norms-midnight-music',
    title: 'Music after midnight',
    category: 'social-norms',
    text: 'At half past midnight on a weeknight, one neighbour knocks to ask the other to turn down loud music.',
    goals: [
      'Get the music turned down now and an agreement for future weeknights.',
      'Keep your small birthday gathering going for one more hour.',
    ],
    facts: [
      { text: 'The building’s rules ask for quiet after eleven.' },
      { text: 'You start an early shift at six in the morning.', visibleTo: 0 },
    ],
    relationship: 1,
    pairings: [
      ['nadia-benali', 'kai-andersen'],
      ['rosa-delgado', 'mateo-silva'],
      ['hiroshi-tanaka', 'sam-taylor'],
      ['ruth-abrams', 'chidi-okafor'],
      ['amara-okafor', 'hana-svoboda'],
      ['piotr-nowak', 'tomas-herrera'],
    ],
  },
  {
    id: 'norms-uneven-bill',
    title: 'Splitting the bill',
    category: 'social-norms',
    text: 'After a group dinner, two acquaintances are left to settle the bill; one ordered wine and steak, the other a salad.',
    goals: [
      'Split the bill evenly, as the group always does.',
      'Pay only for what you ordered, without seeming stingy.',
    ],
    facts: [
      { text: 'The bill is 140 euros; the salad and water cost 18.' },
      { text: 'You are short of money until payday.', visibleTo: 1 },
    ],
    relationship: 2,
    pairings: [
      ['oliver-grant', 'sofia-rossi'],
      ['jonas-weber', 'tomas-herrera'],
      ['lena-fischer', 'sam-taylor'],
      ['mei-lin', 'yumi-tanaka'],
      ['arjun-mehta', 'kai-andersen'],
      ['camille-dubois', 'priya-raman'],
    ],
  },
  {
    id: 'norms-stolen-credit',
    title: 'Whose idea was it',
    category: 'social-norms',
    text: 'In a team meeting, one colleague presented an idea that the other had shared with them privately the week before.',
    goals: [
      'Keep the credit for the idea without an open quarrel.',
      'Get the colleague to tell the boss that the idea was yours.',
    ],
    facts: [
      { text: 'The boss loved the idea and wants it in the next plan.' },
      { text: 'You have an email from last week that describes the idea.', visibleTo: 1 },
    ],
    relationship: 2,
    pairings: [
      ['oliver-grant', 'priya-raman'],
      ['yusuf-demir', 'zofia-nowak'],
      ['lena-fischer', 'elena-popescu'],
      ['chidi-okafor', 'ben-carter'],
      ['mei-lin', 'alex-kim'],
      ['arjun-mehta', 'maya-goldberg'],
    ],
  },
  {
    id: 'norms-overdue-loan',
    title: 'The loan that was never repaid',
    category: 'social-norms',
    text: 'A friend lent the other 500 euros six months ago, to be repaid in one month, and raises it over coffee.',
    goals: [
      'Get a firm date for repayment without ending the friendship.',
      'Delay repayment by two more months and keep the friendship warm.',
    ],
    facts: [
      { text: 'The borrower posted photos from a weekend trip last month.', visibleTo: 0 },
      { text: 'You lost a part-time job soon after borrowing.', visibleTo: 1 },
    ],
    relationship: 3,
    pairings: [
      ['marcus-johnson', 'oliver-grant'],
      ['priya-raman', 'tomas-herrera'],
      ['kwame-mensah', 'ivan-petrov'],
      ['sofia-rossi', 'hana-svoboda'],
      ['maya-goldberg', 'mateo-silva'],
      ['isabel-cruz', 'kai-andersen'],
    ],
  },
  {
    id: 'norms-phone-at-dinner',
    title: 'The phone at dinner',
    category: 'social-norms',
    text: 'At their anniversary dinner, one partner keeps checking their phone, and the other finally says something.',
    goals: [
      'Keep answering one urgent work matter tonight without spoiling the evening.',
      'Get your partner to put the phone away for the rest of the dinner.',
    ],
    facts: [
      { text: 'It is the third dinner this month interrupted by the phone.' },
      { text: 'The messages are about a surprise gift you are arranging.', visibleTo: 0 },
    ],
    relationship: 4,
    pairings: [
      ['oliver-grant', 'lena-fischer'],
      ['yusuf-demir', 'nadia-benali'],
      ['mei-lin', 'arjun-mehta'],
      ['marcus-johnson', 'elena-popescu'],
      ['tariq-rahman', 'isabel-cruz'],
      ['viktor-horvath', 'camille-dubois'],
    ],
  },
  {
    id: 'norms-wedding-invitation',
    title: 'The uninvited uncle',
    category: 'social-norms',
    text: 'Two members of a family discuss the guest list for a family wedding and an uncle who fell out with everyone.',
    goals: [
      'Get the uncle invited, because leaving him out would split the family for good.',
      'Keep the uncle off the list; he ruined the last family party.',
    ],
    facts: [
      { text: 'The uncle apologised in a letter that few people read.', visibleTo: 0 },
      { text: 'The couple asked you to keep the peace at any cost.', visibleTo: 1 },
    ],
    relationship: 5,
    pairings: [
      ['ngozi-okafor', 'amara-okafor'],
      ['astrid-lindqvist', 'erik-lindqvist'],
      ['hiroshi-tanaka', 'yumi-tanaka'],
      ['samir-haddad', 'leila-haddad'],
      ['piotr-nowak', 'zofia-nowak'],
      ['lucia-moreno', 'diego-moreno'],
    ],
  },
];
