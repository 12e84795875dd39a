import type { ScenarioDef } from '../schema';

/** Cooperation: a shared aim, different ideas of how to reach it. Original text for this project. */
export const COOPERATION: ScenarioDef[] = [
  {
    id: 'cooperation-surprise-party',
    title: 'A surprise party',
    category: 'cooperation',
    text: 'Two friends plan a surprise fortieth birthday party for a mutual friend, with ten days and a small budget.',
    goals: [
      'Agree on a big party in a rented hall, and get the other to handle the guest list.',
      'Agree on a small dinner at home, and keep the cost under 300 euros.',
    ],
    facts: [
      { text: 'The friend once said they hate being the centre of attention.', visibleTo: 1 },
      { text: 'You already put a 100 euro deposit on a hall.', visibleTo: 0 },
    ],
    relationship: 3,
    pairings: [
      ['isabel-cruz', 'tariq-rahman'],
      ['marcus-johnson', 'kwame-mensah'],
      ['hana-svoboda', 'yumi-tanaka'],
      ['chidi-okafor', 'priya-raman'],
      ['lucia-moreno', 'grace-oneill'],
      ['mateo-silva', 'alex-kim'],
    ],
  },
  {
    id: 'cooperation-lost-hikers',
    title: 'Fog on the trail',
    category: 'cooperation',
    text: 'Two hikers who have never met reach the same trail junction as thick fog rolls in two hours before dark.',
    goals: [
      'Convince the other to descend together now by the short, steep path.',
      'Get both of you to wait at the junction and call for help.',
    ],
    facts: [
      { text: 'A mountain hut is about an hour away by the steep path.' },
      { text: 'You twisted your ankle an hour ago.', visibleTo: 0 },
      { text: 'Your phone has 10 percent battery and one bar of signal.', visibleTo: 1 },
    ],
    relationship: 0,
    pairings: [
      ['hana-svoboda', 'ruth-abrams'],
      ['kai-andersen', 'aiyana-begay'],
      ['ivan-petrov', 'sam-taylor'],
      ['nadia-benali', 'ben-carter'],
      ['erik-lindqvist', 'mei-lin'],
      ['aiyana-begay', 'oliver-grant'],
    ],
  },
  {
    id: 'cooperation-food-drive',
    title: 'Short of food at the food bank',
    category: 'cooperation',
    text: 'Two volunteers at a food bank find that this week’s delivery covers only half of the families on the list.',
    goals: [
      'Give full parcels to families with children first, and call donors tonight.',
      'Give every family a half parcel, so nobody leaves with nothing.',
    ],
    facts: [
      { text: 'Sixty families are expected this afternoon.' },
      { text: 'A supermarket offered surplus bread if someone collects it by six.', visibleTo: 1 },
    ],
    relationship: 1,
    pairings: [
      ['grace-oneill', 'rosa-delgado'],
      ['mei-lin', 'kwame-mensah'],
      ['fatima-diallo', 'tomas-herrera'],
      ['joseph-mwangi', 'sofia-rossi'],
      ['maya-goldberg', 'arjun-mehta'],
      ['tariq-rahman', 'ngozi-okafor'],
    ],
  },
  {
    id: 'cooperation-group-presentation',
    title: 'The presentation is due tomorrow',
    category: 'cooperation',
    text: 'Two classmates assigned to the same project must split the work for a twenty-minute presentation due tomorrow morning.',
    goals: [
      'Do the slides yourself and have the other write and rehearse the talk.',
      'Split every part in half so the grade reflects both of you equally.',
    ],
    facts: [
      { text: 'The third team member dropped the course last week.' },
      { text: 'You have a shift at work until ten tonight.', visibleTo: 0 },
    ],
    relationship: 1,
    pairings: [
      ['diego-moreno', 'leila-haddad'],
      ['sam-taylor', 'kai-andersen'],
      ['leila-haddad', 'tomas-herrera'],
      ['kai-andersen', 'diego-moreno'],
      ['sam-taylor', 'chidi-okafor'],
    ],
  },
  {
    id: 'cooperation-kitchen-rush',
    title: 'A cook called in sick',
    category: 'cooperation',
    text: 'Two coworkers in a restaurant kitchen learn that a cook is sick an hour before a sixty-person booking.',
    goals: [
      'Cut the menu to three dishes so you can serve everyone on time.',
      'Keep the full menu and call a former colleague to come in for the night.',
    ],
    facts: [
      { text: 'The guests were promised a choice of six dishes.' },
      { text: 'The former colleague left after a fight with the owner.', visibleTo: 0 },
    ],
    relationship: 2,
    pairings: [
      ['lucia-moreno', 'diego-moreno'],
      ['samir-haddad', 'mateo-silva'],
      ['arjun-mehta', 'tomas-herrera'],
      ['rosa-delgado', 'chidi-okafor'],
      ['diego-moreno', 'sofia-rossi'],
      ['mateo-silva', 'lucia-moreno'],
    ],
  },
  {
    id: 'cooperation-community-garden',
    title: 'One plot, one budget',
    category: 'cooperation',
    text: 'Two neighbours were given a shared plot in the new community garden and 200 euros from the city to set it up.',
    goals: [
      'Spend the money on raised beds and grow vegetables to share.',
      'Plant flowers and a bench so older neighbours have a place to sit.',
    ],
    facts: [
      { text: 'The city will check the plot in June.' },
      { text: 'You can get free wood from a building site.', visibleTo: 0 },
    ],
    relationship: 2,
    pairings: [
      ['hiroshi-tanaka', 'astrid-lindqvist'],
      ['joseph-mwangi', 'kwame-mensah'],
      ['aiyana-begay', 'ruth-abrams'],
      ['rafael-moreno', 'fatima-diallo'],
      ['sofia-rossi', 'viktor-horvath'],
      ['piotr-nowak', 'grace-oneill'],
    ],
  },
  {
    id: 'cooperation-moving-day',
    title: 'Moving day',
    category: 'cooperation',
    text: 'A couple must empty their flat by tonight, and the new place is much smaller.',
    goals: [
      'Give away most of the furniture and the records to fit the new flat.',
      'Keep the records and the old armchair; rent a storage unit if needed.',
    ],
    facts: [
      { text: 'The van is booked until eight in the evening.' },
      { text: 'The armchair belonged to your grandfather.', visibleTo: 1 },
    ],
    relationship: 4,
    pairings: [
      ['priya-raman', 'alex-kim'],
      ['lena-fischer', 'oliver-grant'],
      ['camille-dubois', 'viktor-horvath'],
      ['mei-lin', 'arjun-mehta'],
      ['isabel-cruz', 'tariq-rahman'],
      ['nadia-benali', 'yusuf-demir'],
    ],
  },
  {
    id: 'cooperation-care-plan',
    title: 'Care after the hospital',
    category: 'cooperation',
    text: 'Two members of a family plan how to look after an elderly relative who comes home from hospital next week.',
    goals: [
      'Hire a paid carer for mornings and share the cost evenly.',
      'Take turns caring in person, so no stranger comes into the house.',
    ],
    facts: [
      { text: 'A carer costs about 600 euros a month for mornings.' },
      { text: 'You cannot take any more time off work this year.', visibleTo: 0 },
    ],
    relationship: 5,
    pairings: [
      ['amara-okafor', 'chidi-okafor'],
      ['zofia-nowak', 'piotr-nowak'],
      ['erik-lindqvist', 'astrid-lindqvist'],
      ['yumi-tanaka', 'hiroshi-tanaka'],
      ['rafael-moreno', 'lucia-moreno'],
      ['leila-haddad', 'samir-haddad'],
    ],
  },
];
