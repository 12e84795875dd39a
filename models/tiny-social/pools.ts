/**
 * Content pools for the embedded model's corpus: names, personas, scenarios, questions, words, topics.
 * Everything here was written for this project. Content is deliberately simple: the model is a teaching toy.
 * Items are split into train / held-out by index (every 5th item is held out) in corpus.ts.
 */

export const FIRST_NAMES = [
  'Mia', 'Tom', 'Ava', 'Leo', 'Nora', 'Sam', 'Ella', 'Ben', 'Lily', 'Omar', 'Zoe', 'Ravi', 'Ruth', 'Ivan', 'Lena',
  'Hugo', 'Iris', 'Jack', 'Maya', 'Noah', 'Rosa', 'Eli', 'Anna', 'Paul', 'Sara', 'Luis', 'Kate', 'Amir', 'Jade',
  'Owen', 'Nina', 'Theo', 'Clara', 'Adam', 'Lucy', 'Kofi', 'Emma', 'Dan', 'Yuki', 'Max', 'Hana', 'Jon', 'Alice',
  'Finn', 'Grace', 'Raj', 'Vera', 'Carl', 'Dina', 'Marco', 'Tara', 'Abe', 'Lola', 'Sean', 'Ines', 'Kai', 'Beth',
  'Otto', 'Mira', 'Joel', 'Rita', 'Ali', 'Fay', 'Gus', 'Elsa', 'Tim', 'June', 'Ray', 'Pia', 'Ned', 'Zara', 'Ari',
];

export const LAST_NAMES = [
  'Chen', 'Miller', 'Garcia', 'Khan', 'Novak', 'Smith', 'Okafor', 'Rossi', 'Silva', 'Becker', 'Kim', 'Patel',
  'Jones', 'Moreau', 'Haas', 'Lopez', 'Ito', 'Brown', 'Nowak', 'Dubois', 'Reyes', 'Berg', 'Costa', 'Young', 'Ward',
  'Adams', 'Fischer', 'Ortiz', 'Hill', 'Sato', 'Price', 'Stone', 'Lind', 'Meyer', 'Park', 'Diaz',
];

export const OCCUPATIONS = [
  'nurse', 'teacher', 'baker', 'software engineer', 'farmer', 'student', 'lawyer', 'plumber', 'artist', 'chef',
  'accountant', 'bus driver', 'doctor', 'shop owner', 'journalist', 'librarian', 'mechanic', 'musician',
  'police officer', 'architect', 'gardener', 'pharmacist', 'waiter', 'scientist', 'electrician', 'photographer',
  'real estate agent', 'dentist', 'carpenter', 'social worker', 'pilot', 'tailor', 'fisher', 'banker', 'coach',
];

export const PUBLIC_INFO = [
  'Volunteers at the food bank on weekends.', 'Runs a small podcast about local history.', 'Plays in a weekend football team.',
  'Recently moved to the city.', 'Has two young children.', 'Is known for great homemade bread.', 'Ran a marathon last year.',
  'Sings in a choir.', 'Grows tomatoes on the balcony.', 'Is saving money to buy a house.', 'Takes evening classes in Spanish.',
  'Owns an old red bicycle.', 'Writes short poems for fun.', 'Looks after an elderly neighbor.', 'Collects old maps.',
  'Is the treasurer of the tenants club.', 'Loves board games.', 'Often travels for work.', 'Fixes friends\' computers.',
  'Keeps bees in the garden.', 'Teaches kids to swim in summer.', 'Is learning to play the guitar.', 'Walks a big grey dog every morning.',
  'Bakes cakes for every office birthday.', 'Organizes the street party each year.',
];

export const PERSONALITIES = [
  'Kind and patient; values honesty.', 'Direct and ambitious; values success.', 'Shy but loyal; values family.',
  'Cheerful and talkative; values friendship.', 'Careful and calm; values security.', 'Curious and open; values learning.',
  'Proud and stubborn; values respect.', 'Generous and warm; values fairness.', 'Anxious but helpful; values order.',
  'Playful and creative; values freedom.', 'Serious and hard-working; values duty.', 'Easygoing and funny; values fun.',
  'Competitive and bold; values winning.', 'Gentle and thoughtful; values harmony.', 'Practical and blunt; values efficiency.',
];

export const DECISION_STYLES = [
  'Thinks things over slowly.', 'Decides fast from gut feeling.', 'Asks others for advice first.', 'Follows the rules.',
  'Weighs costs and benefits.', 'Goes with what feels fair.', 'Avoids risks.', 'Likes to take chances.',
];

export const SECRETS = [
  'Lost a lot of money gambling last year.', 'Secretly applied for a job in another city.', 'Failed the driving test three times.',
  'Is afraid of dogs.', 'Broke a neighbor\'s window as a teenager and never told.', 'Has never read a whole book.',
  'Is planning a surprise party.', 'Borrowed money from a friend and has not paid it back.', 'Cannot swim.',
  'Once cheated in a cooking contest.', 'Is thinking about quitting their job.', 'Forgot their best friend\'s birthday.',
  'Still sleeps with a night light.', 'Took credit for a coworker\'s idea.', 'Is learning to read music in secret.',
  'Lied about their age on a form.', 'Is writing a novel under a fake name.', 'Dislikes the family recipe everyone praises.',
];

export const PRONOUNS: Record<string, string> = { f: 'she/her', m: 'he/him', n: 'they/them' };

/** Names with a default pronoun (project choice, not a claim about any real person). */
export const NAME_PRONOUN: Record<string, 'f' | 'm' | 'n'> = {
  Mia: 'f', Tom: 'm', Ava: 'f', Leo: 'm', Nora: 'f', Sam: 'n', Ella: 'f', Ben: 'm', Lily: 'f', Omar: 'm', Zoe: 'f',
  Ravi: 'm', Ruth: 'f', Ivan: 'm', Lena: 'f', Hugo: 'm', Iris: 'f', Jack: 'm', Maya: 'f', Noah: 'm', Rosa: 'f',
  Eli: 'n', Anna: 'f', Paul: 'm', Sara: 'f', Luis: 'm', Kate: 'f', Amir: 'm', Jade: 'f', Owen: 'm', Nina: 'f',
  Theo: 'm', Clara: 'f', Adam: 'm', Lucy: 'f', Kofi: 'm', Emma: 'f', Dan: 'm', Yuki: 'n', Max: 'n', Hana: 'f',
  Jon: 'm', Alice: 'f', Finn: 'm', Grace: 'f', Raj: 'm', Vera: 'f', Carl: 'm', Dina: 'f', Marco: 'm', Tara: 'f',
  Abe: 'm', Lola: 'f', Sean: 'm', Ines: 'f', Kai: 'n', Beth: 'f', Otto: 'm', Mira: 'f', Joel: 'm', Rita: 'f',
  Ali: 'n', Fay: 'f', Gus: 'm', Elsa: 'f', Tim: 'm', June: 'f', Ray: 'm', Pia: 'f', Ned: 'm', Zara: 'f', Ari: 'n',
};

/**
 * Scenarios: a setting and two goals. Each goal has an `ask` (what the agent wants, as a verb phrase for
 * "I would like you to ...") and `offer` (what it can give in return).
 */
export interface ScenarioSeed {
  kind: 'negotiation' | 'cooperation' | 'competition' | 'persuasion' | 'social norms';
  setting: string;
  goals: [Goal, Goal];
}
export interface Goal {
  text: string;
  ask: string;
  offer: string;
  topic: string;
}

export const SCENARIOS: ScenarioSeed[] = [
  { kind: 'negotiation', setting: 'Two neighbors talk over the fence about an old bicycle one of them is selling.',
    goals: [{ text: 'Sell the bicycle for at least 80 dollars.', ask: 'pay 80 dollars for the bike', offer: 'add a new lock for free', topic: 'the bike' },
      { text: 'Buy the bicycle for no more than 60 dollars.', ask: 'sell the bike for 60 dollars', offer: 'pay in cash today', topic: 'the price' }] },
  { kind: 'cooperation', setting: 'Two coworkers must plan the office party together by Friday.',
    goals: [{ text: 'Agree on a date and a place for the party.', ask: 'pick Friday at the pizza place', offer: 'book the room myself', topic: 'the party' },
      { text: 'Make sure the party is cheap.', ask: 'keep the party under 100 dollars', offer: 'bring snacks from home', topic: 'the budget' }] },
  { kind: 'persuasion', setting: 'Two friends meet at a cafe; one wants the other to join a running club.',
    goals: [{ text: 'Convince the other person to join the running club.', ask: 'come to the running club on Sunday', offer: 'run at your pace', topic: 'the running club' },
      { text: 'Keep your Sunday mornings free.', ask: 'let me keep my Sundays free', offer: 'meet for coffee instead', topic: 'Sunday mornings' }] },
  { kind: 'social norms', setting: 'Two people wait in a long line at the post office; one wants to skip ahead.',
    goals: [{ text: 'Get to the front of the line quickly.', ask: 'let me go ahead of you', offer: 'hold your place later', topic: 'the line' },
      { text: 'Keep your place in the line politely.', ask: 'wait your turn like everyone', offer: 'help you find a faster counter', topic: 'waiting' }] },
  { kind: 'competition', setting: 'Two colleagues both want to lead a new project at work.',
    goals: [{ text: 'Become the leader of the new project.', ask: 'support me as project leader', offer: 'give you the design part', topic: 'the project' },
      { text: 'Become the leader of the new project.', ask: 'let me lead the project', offer: 'share the credit with you', topic: 'leading' }] },
  { kind: 'negotiation', setting: 'A tenant and a landlord discuss the rent for next year.',
    goals: [{ text: 'Keep the rent the same as this year.', ask: 'keep the rent the same', offer: 'sign for two more years', topic: 'the rent' },
      { text: 'Raise the rent by 5 percent.', ask: 'accept a small rent increase', offer: 'fix the kitchen tap', topic: 'the increase' }] },
  { kind: 'cooperation', setting: 'Two roommates divide the weekly chores.',
    goals: [{ text: 'Avoid cleaning the bathroom this week.', ask: 'clean the bathroom this week', offer: 'do all the dishes', topic: 'the chores' },
      { text: 'Share the chores fairly.', ask: 'take turns with the bathroom', offer: 'take out the trash', topic: 'fairness' }] },
  { kind: 'persuasion', setting: 'Two siblings talk about where to spend the holidays.',
    goals: [{ text: 'Convince your sibling to spend the holidays at the beach.', ask: 'come to the beach with me', offer: 'pay for the gas', topic: 'the beach' },
      { text: 'Spend the holidays at home with your parents.', ask: 'stay home with our parents', offer: 'plan a day trip', topic: 'home' }] },
  { kind: 'negotiation', setting: 'Two people at a flea market discuss a used guitar.',
    goals: [{ text: 'Get the guitar for a low price.', ask: 'sell the guitar for 40 dollars', offer: 'buy the case too', topic: 'the guitar' },
      { text: 'Sell the guitar for a good price.', ask: 'pay 70 dollars for it', offer: 'include new strings', topic: 'the price' }] },
  { kind: 'social norms', setting: 'Two neighbors talk about loud music late at night.',
    goals: [{ text: 'Get your neighbor to turn the music down after ten.', ask: 'turn the music down after ten', offer: 'tell you before my own parties', topic: 'the noise' },
      { text: 'Keep playing music on Friday nights.', ask: 'let me play music on Fridays', offer: 'stop at midnight', topic: 'Friday nights' }] },
  { kind: 'cooperation', setting: 'Two classmates prepare a science poster together.',
    goals: [{ text: 'Finish the poster by Thursday.', ask: 'meet on Tuesday to finish it', offer: 'draw the charts', topic: 'the poster' },
      { text: 'Choose a topic about space.', ask: 'pick a space topic', offer: 'write the text', topic: 'the topic' }] },
  { kind: 'persuasion', setting: 'Two coworkers talk about switching to a four-day week.',
    goals: [{ text: 'Convince your coworker to sign the petition for a four-day week.', ask: 'sign the petition', offer: 'cover your Friday calls', topic: 'the petition' },
      { text: 'Avoid signing anything before reading it.', ask: 'give me time to read it', offer: 'talk to the manager with you', topic: 'the details' }] },
  { kind: 'competition', setting: 'Two bakers at a village fair both want the best stall spot.',
    goals: [{ text: 'Get the stall next to the entrance.', ask: 'take the corner stall', offer: 'share my table', topic: 'the stall' },
      { text: 'Get the stall next to the entrance.', ask: 'let me have the entrance spot', offer: 'lend you my tent', topic: 'the spot' }] },
  { kind: 'negotiation', setting: 'Two friends split the cost of a shared taxi home.',
    goals: [{ text: 'Pay less than half of the taxi fare.', ask: 'pay a bit more of the fare', offer: 'pay next time', topic: 'the fare' },
      { text: 'Split the fare exactly in half.', ask: 'split it in half', offer: 'round down the tip', topic: 'splitting' }] },
  { kind: 'social norms', setting: 'A guest and a host talk at the end of a dinner party.',
    goals: [{ text: 'Leave early without offending the host.', ask: 'understand that I must go early', offer: 'host the next dinner', topic: 'leaving early' },
      { text: 'Get your guest to stay for dessert.', ask: 'stay for dessert', offer: 'pack some cake for you', topic: 'dessert' }] },
  { kind: 'cooperation', setting: 'Two volunteers organize a park clean-up.',
    goals: [{ text: 'Find ten more volunteers.', ask: 'ask your friends to join', offer: 'bring gloves for everyone', topic: 'volunteers' },
      { text: 'Pick a date that works for families.', ask: 'choose a Saturday morning', offer: 'make the posters', topic: 'the date' }] },
  { kind: 'persuasion', setting: 'Two friends decide which movie to watch tonight.',
    goals: [{ text: 'Watch a comedy tonight.', ask: 'watch the new comedy', offer: 'buy the popcorn', topic: 'the comedy' },
      { text: 'Watch a documentary tonight.', ask: 'watch the nature film', offer: 'pick a short one', topic: 'the documentary' }] },
  { kind: 'negotiation', setting: 'A customer and a mechanic talk about a car repair bill.',
    goals: [{ text: 'Get a discount on the repair.', ask: 'take 50 dollars off the bill', offer: 'come back for the next service', topic: 'the bill' },
      { text: 'Get paid in full today.', ask: 'pay the full bill today', offer: 'wash the car for free', topic: 'payment' }] },
  { kind: 'competition', setting: 'Two players argue about who won a close game of tennis.',
    goals: [{ text: 'Get the other player to admit you won.', ask: 'admit the last ball was in', offer: 'play a rematch', topic: 'the last point' },
      { text: 'Replay the last point.', ask: 'replay the last point', offer: 'let you serve', topic: 'replaying' }] },
  { kind: 'cooperation', setting: 'Two parents plan a birthday party for their kids, who share a birthday.',
    goals: [{ text: 'Hold one joint party.', ask: 'have one party for both kids', offer: 'host it at my house', topic: 'the party' },
      { text: 'Keep the party small.', ask: 'invite only close friends', offer: 'bake the cake', topic: 'the guest list' }] },
  { kind: 'persuasion', setting: 'Two colleagues talk about taking the train instead of driving to work.',
    goals: [{ text: 'Convince your colleague to take the train.', ask: 'try the train for a week', offer: 'show you the best route', topic: 'the train' },
      { text: 'Keep driving to work.', ask: 'accept that I drive', offer: 'give you a lift sometimes', topic: 'driving' }] },
  { kind: 'social norms', setting: 'Two strangers sit on a park bench; one wants to feed pigeons.',
    goals: [{ text: 'Feed the pigeons in peace.', ask: 'let me feed the birds', offer: 'move to the end of the bench', topic: 'the pigeons' },
      { text: 'Keep the birds away from your lunch.', ask: 'feed them somewhere else', offer: 'share the bench', topic: 'my lunch' }] },
  { kind: 'negotiation', setting: 'Two collectors trade stamps at a club meeting.',
    goals: [{ text: 'Get the rare blue stamp.', ask: 'trade me the blue stamp', offer: 'give you two red ones', topic: 'the blue stamp' },
      { text: 'Get three stamps for the blue one.', ask: 'give me three stamps for it', offer: 'add a free album', topic: 'the trade' }] },
  { kind: 'cooperation', setting: 'Two hikers plan a route before a long walk.',
    goals: [{ text: 'Take the lake path.', ask: 'take the lake path', offer: 'carry the water', topic: 'the route' },
      { text: 'Be back before dark.', ask: 'start early', offer: 'pack the food', topic: 'the time' }] },
  { kind: 'persuasion', setting: 'Two friends talk about adopting a cat from the shelter.',
    goals: [{ text: 'Convince your friend to adopt a cat.', ask: 'visit the shelter with me', offer: 'help with the first vet visit', topic: 'the cat' },
      { text: 'Avoid taking on a pet right now.', ask: 'wait until next year', offer: 'look after your cat sometimes', topic: 'pets' }] },
];

export const SMALL_TALK = [
  'How has your week been?', 'It is nice weather today.', 'I have been busy at work lately.', 'I am glad we could talk.',
  'Did you see the news this morning?', 'I hope your family is well.', 'This place is busier than usual.',
];

// ------------------------------------------------------------------------------------------------------------
// Opinions

export const PERSONA_AGES = ['19-year-old', '24-year-old', '31-year-old', '38-year-old', '45-year-old', '52-year-old', '63-year-old', '71-year-old'];
export const PERSONA_REGIONS = ['from Texas', 'from Ohio', 'from California', 'from rural Iowa', 'from New York City', 'from Georgia',
  'from Oregon', 'from Michigan', 'from Arizona', 'from Maine', 'from Florida', 'from Colorado', 'from a small town in Kansas', 'from Chicago'];
export const PERSONA_RELIGIONS = ['who goes to church every week', 'who is not religious', 'who is Catholic', 'who is Muslim', 'who is Jewish',
  'who is spiritual but not religious', 'who is an evangelical Christian', 'who is Buddhist'];
export const PERSONA_TEMPERS = ['calm', 'stubborn', 'open-minded', 'cautious', 'outspoken', 'friendly', 'skeptical', 'easygoing', 'idealistic', 'practical'];
/** Politics from -2 (very liberal) to +2 (very conservative). */
export const PERSONA_POLITICS: [string, number][] = [
  ['very liberal', -2], ['liberal', -1], ['moderate', 0], ['conservative', 1], ['very conservative', 2],
  ['progressive', -2], ['centrist', 0], ['libertarian', 1], ['left-leaning', -1], ['right-leaning', 1],
];

/** Political statements with their lean: +1 if conservatives tend to agree, -1 if liberals do. */
export const STATEMENTS: { text: string; lean: 1 | -1; pro: string[]; con: string[] }[] = [
  { text: 'The government should raise the minimum wage.', lean: -1, pro: ['workers need to pay their bills', 'prices keep going up'], con: ['small shops would have to cut jobs', 'wages should be set by the market'] },
  { text: 'Taxes on businesses should be lowered.', lean: 1, pro: ['businesses would hire more people', 'it helps the economy grow'], con: ['schools need that money', 'big companies already pay too little'] },
  { text: 'Public colleges should be free for everyone.', lean: -1, pro: ['education should not depend on money', 'students would not start with debt'], con: ['taxpayers would pay too much', 'free things are not valued'] },
  { text: 'The country should build more fences at the border.', lean: 1, pro: ['the border needs to be safe', 'laws should be enforced'], con: ['fences do not solve the real problem', 'the money is better spent elsewhere'] },
  { text: 'Owning a gun is a basic right.', lean: 1, pro: ['people should be able to protect themselves', 'it is in the constitution'], con: ['more guns mean more danger', 'safety matters more than guns'] },
  { text: 'The government should do more to fight climate change.', lean: -1, pro: ['the planet is getting hotter', 'our children need a safe future'], con: ['it would cost too many jobs', 'people should choose for themselves'] },
  { text: 'Police departments should get more money.', lean: 1, pro: ['people need to feel safe', 'officers need better training'], con: ['the money should go to schools', 'more money is not the answer'] },
  { text: 'Health care should be run by the government.', lean: -1, pro: ['everyone deserves a doctor', 'people should not go broke when sick'], con: ['the government is too slow', 'people should pick their own plans'] },
  { text: 'Schools should teach more about religion and tradition.', lean: 1, pro: ['children need strong values', 'tradition holds families together'], con: ['religion belongs at home', 'schools should stay neutral'] },
  { text: 'Cities should build more bike lanes instead of roads.', lean: -1, pro: ['bikes are clean and healthy', 'traffic would get better'], con: ['most people still drive', 'roads need repairs first'] },
  { text: 'The death penalty should be ended.', lean: -1, pro: ['courts can make mistakes', 'it does not stop crime'], con: ['some crimes deserve it', 'victims deserve justice'] },
  { text: 'The government should spend less and cut the debt.', lean: 1, pro: ['debt hurts our children', 'families have to live within their means'], con: ['cuts hurt poor people first', 'spending can help the economy'] },
  { text: 'Voting should be allowed only with a photo ID.', lean: 1, pro: ['elections must be secure', 'you need an ID for many things'], con: ['some people cannot get an ID easily', 'fraud is very rare'] },
  { text: 'Unions make life better for workers.', lean: -1, pro: ['workers are stronger together', 'unions fought for the weekend'], con: ['unions protect bad workers', 'they make companies less flexible'] },
  { text: 'Parents should be able to use public money for private schools.', lean: 1, pro: ['parents know what is best for their kids', 'competition makes schools better'], con: ['public schools would lose money', 'it helps mostly rich families'] },
];

// ------------------------------------------------------------------------------------------------------------
// Words (word game) with hints

export const WORDS: Record<string, [string, string][]> = {
  A: [['apple', 'fruit'], ['anchor', 'ship'], ['arrow', 'bow'], ['army', 'soldiers'], ['ant', 'insect'], ['angel', 'wings'], ['autumn', 'leaves'], ['axe', 'wood'], ['actor', 'movie']],
  B: [['bread', 'bakery'], ['bridge', 'river'], ['bird', 'feathers'], ['book', 'read'], ['ball', 'round'], ['banana', 'yellow'], ['bottle', 'drink'], ['bee', 'honey'], ['boat', 'sail']],
  C: [['cat', 'meow'], ['castle', 'king'], ['cloud', 'sky'], ['candle', 'flame'], ['chair', 'sit'], ['coffee', 'morning'], ['cheese', 'mouse'], ['clock', 'time'], ['carrot', 'orange']],
  D: [['dog', 'bark'], ['door', 'open'], ['dragon', 'fire'], ['desert', 'sand'], ['drum', 'beat'], ['duck', 'pond'], ['diamond', 'ring'], ['doctor', 'hospital'], ['dance', 'music']],
  E: [['egg', 'chicken'], ['elephant', 'trunk'], ['engine', 'car'], ['earth', 'planet'], ['eagle', 'soar'], ['envelope', 'letter'], ['eye', 'see'], ['ear', 'hear']],
  F: [['fish', 'swim'], ['forest', 'trees'], ['flower', 'petals'], ['fire', 'hot'], ['frog', 'jump'], ['fork', 'eat'], ['feather', 'light'], ['farm', 'cows'], ['flag', 'country']],
  G: [['garden', 'plants'], ['guitar', 'strings'], ['gold', 'shiny'], ['goat', 'milk'], ['glass', 'window'], ['ghost', 'scary'], ['grape', 'wine'], ['gift', 'birthday']],
  H: [['house', 'home'], ['horse', 'ride'], ['hat', 'head'], ['honey', 'sweet'], ['hammer', 'nail'], ['heart', 'love'], ['hill', 'climb'], ['hospital', 'nurse']],
  I: [['ice', 'cold'], ['island', 'ocean'], ['ink', 'pen'], ['iron', 'metal'], ['igloo', 'snow'], ['insect', 'bug'], ['idea', 'think'], ['ivy', 'wall']],
  J: [['jungle', 'tigers'], ['jacket', 'coat'], ['jam', 'toast'], ['jar', 'lid'], ['jewel', 'crown'], ['juice', 'orange'], ['judge', 'court'], ['joke', 'laugh']],
  K: [['king', 'crown'], ['kite', 'wind'], ['key', 'lock'], ['kitchen', 'cook'], ['kitten', 'cat'], ['knife', 'cut'], ['kangaroo', 'jump'], ['kettle', 'tea']],
  L: [['lion', 'roar'], ['lemon', 'sour'], ['lamp', 'light'], ['ladder', 'climb'], ['leaf', 'tree'], ['library', 'books'], ['lake', 'water'], ['letter', 'mail']],
  M: [['moon', 'night'], ['mountain', 'peak'], ['milk', 'cow'], ['music', 'song'], ['mouse', 'cheese'], ['mirror', 'reflection'], ['map', 'travel'], ['market', 'shop']],
  N: [['nest', 'bird'], ['needle', 'sew'], ['night', 'dark'], ['nose', 'smell'], ['nurse', 'care'], ['nut', 'squirrel'], ['net', 'fishing'], ['novel', 'story']],
  O: [['ocean', 'waves'], ['orange', 'citrus'], ['owl', 'wise'], ['oven', 'bake'], ['onion', 'tears'], ['olive', 'oil'], ['octopus', 'tentacles'], ['oak', 'acorn']],
  P: [['piano', 'keys'], ['pencil', 'write'], ['pizza', 'cheese'], ['parrot', 'talk'], ['pillow', 'sleep'], ['planet', 'orbit'], ['pumpkin', 'halloween'], ['pear', 'fruit']],
  Q: [['queen', 'royal'], ['quilt', 'blanket'], ['question', 'answer'], ['quiet', 'silent'], ['quarter', 'coin'], ['quiz', 'test'], ['quail', 'bird'], ['queue', 'line']],
  R: [['rain', 'umbrella'], ['river', 'flow'], ['rabbit', 'carrot'], ['rose', 'thorn'], ['robot', 'machine'], ['rocket', 'space'], ['ring', 'finger'], ['road', 'car']],
  S: [['sun', 'bright'], ['snake', 'hiss'], ['ship', 'sea'], ['star', 'sky'], ['snow', 'winter'], ['spoon', 'soup'], ['shoe', 'foot'], ['school', 'teacher'], ['salt', 'pepper']],
  T: [['tree', 'forest'], ['train', 'tracks'], ['tiger', 'stripes'], ['table', 'dinner'], ['tooth', 'dentist'], ['tent', 'camping'], ['tea', 'cup'], ['tomato', 'red']],
  U: [['umbrella', 'rain'], ['unicorn', 'horn'], ['uncle', 'family'], ['uniform', 'school'], ['universe', 'stars'], ['urn', 'vase'], ['ukulele', 'strings'], ['upstairs', 'steps']],
  V: [['violin', 'bow'], ['volcano', 'lava'], ['village', 'houses'], ['vase', 'flowers'], ['vegetable', 'carrot'], ['van', 'drive'], ['vest', 'clothes'], ['valley', 'hills']],
  W: [['water', 'drink'], ['whale', 'ocean'], ['window', 'glass'], ['wolf', 'howl'], ['wheel', 'car'], ['winter', 'cold'], ['wood', 'tree'], ['watch', 'time']],
  X: [['xylophone', 'music'], ['xray', 'bones'], ['xenon', 'gas'], ['xerox', 'copy'], ['xylem', 'plants'], ['xmas', 'december']],
  Y: [['yellow', 'color'], ['yogurt', 'breakfast'], ['yacht', 'boat'], ['yarn', 'knit'], ['year', 'calendar'], ['yoga', 'stretch'], ['yard', 'garden'], ['yolk', 'egg']],
  Z: [['zebra', 'stripes'], ['zoo', 'animals'], ['zero', 'nothing'], ['zipper', 'jacket'], ['zone', 'area'], ['zucchini', 'vegetable'], ['zinc', 'metal'], ['zigzag', 'line']],
};

/**
 * Phase 5 of the build (the letter-constrained word game): per letter, the training-split words of WORDS whose
 * capitalised form starts with the bare capital-letter token of our BPE (the letter in the prompt, "the letter Q.",
 * is tokenised as " " + "Q", so a capitalised answer "Q|uilt" begins by copying that token). Capitalised words whose
 * first token merges further ("Do|g", "For|k", "St|ar", "Tr|ain", "Un|cle", ...) and the held-out words (every 5th
 * item of WORDS) are left out; build.sh checks the tokenisation. The first three of each letter answer the word
 * prompt.
 */
export const LETTER_WORDS: Record<string, [string, string][]> = {
  A: [['arrow', 'bow'], ['army', 'soldiers'], ['ant', 'insect'], ['autumn', 'leaves'], ['axe', 'wood'], ['actor', 'movie']],
  B: [['bird', 'feathers'], ['book', 'read'], ['ball', 'round'], ['bridge', 'river'], ['bottle', 'drink'], ['bee', 'honey'], ['boat', 'sail']],
  C: [['chair', 'sit'], ['cloud', 'sky'], ['clock', 'time'], ['castle', 'king'], ['candle', 'flame'], ['cheese', 'mouse'], ['carrot', 'orange']],
  D: [['drum', 'beat'], ['dance', 'music'], ['dragon', 'fire'], ['desert', 'sand'], ['diamond', 'ring']],
  E: [['eye', 'see'], ['ear', 'hear'], ['earth', 'planet'], ['elephant', 'trunk'], ['engine', 'car'], ['eagle', 'soar']],
  F: [['fire', 'hot'], ['farm', 'cows'], ['flower', 'petals'], ['forest', 'trees'], ['frog', 'jump'], ['feather', 'light'], ['flag', 'country']],
  G: [['gold', 'shiny'], ['gift', 'birthday'], ['glass', 'window'], ['guitar', 'strings'], ['goat', 'milk'], ['grape', 'wine']],
  H: [['horse', 'ride'], ['hat', 'head'], ['honey', 'sweet'], ['hammer', 'nail'], ['hill', 'climb'], ['hospital', 'nurse']],
  I: [['island', 'ocean'], ['iron', 'metal'], ['idea', 'think'], ['igloo', 'snow'], ['ivy', 'wall']],
  J: [['jam', 'toast'], ['jar', 'lid'], ['joke', 'laugh'], ['jewel', 'crown'], ['judge', 'court']],
  K: [['key', 'lock'], ['kite', 'wind'], ['kitchen', 'cook'], ['kitten', 'cat'], ['kangaroo', 'jump'], ['kettle', 'tea']],
  L: [['lamp', 'light'], ['lake', 'water'], ['lemon', 'sour'], ['ladder', 'climb'], ['leaf', 'tree'], ['letter', 'mail']],
  M: [['milk', 'cow'], ['music', 'song'], ['map', 'travel'], ['mountain', 'peak'], ['mouse', 'cheese'], ['market', 'shop']],
  N: [['night', 'dark'], ['nose', 'smell'], ['net', 'fishing'], ['needle', 'sew'], ['nurse', 'care']],
  O: [['orange', 'citrus'], ['oven', 'bake'], ['oak', 'acorn'], ['onion', 'tears'], ['octopus', 'tentacles']],
  P: [['pencil', 'write'], ['pizza', 'cheese'], ['pillow', 'sleep'], ['parrot', 'talk'], ['pumpkin', 'halloween'], ['pear', 'fruit']],
  Q: [['quiet', 'silent'], ['quarter', 'coin'], ['quilt', 'blanket'], ['quail', 'bird'], ['queue', 'line']],
  R: [['river', 'flow'], ['rose', 'thorn'], ['road', 'car'], ['rabbit', 'carrot'], ['robot', 'machine'], ['ring', 'finger']],
  S: [['snow', 'winter'], ['ship', 'sea'], ['school', 'teacher'], ['snake', 'hiss'], ['shoe', 'foot'], ['salt', 'pepper']],
  T: [['table', 'dinner'], ['tea', 'cup'], ['tiger', 'stripes'], ['tooth', 'dentist']],
  U: [['upstairs', 'steps'], ['ukulele', 'strings']],
  V: [['village', 'houses'], ['vase', 'flowers'], ['valley', 'hills'], ['volcano', 'lava'], ['vegetable', 'carrot'], ['vest', 'clothes']],
  W: [['window', 'glass'], ['wood', 'tree'], ['watch', 'time'], ['whale', 'ocean'], ['wolf', 'howl'], ['wheel', 'car']],
  X: [['xray', 'bones'], ['xerox', 'copy'], ['xenon', 'gas'], ['xylem', 'plants']],
  Y: [['year', 'calendar'], ['yard', 'garden'], ['yarn', 'knit'], ['yogurt', 'breakfast'], ['yacht', 'boat'], ['yolk', 'egg']],
  Z: [['zoo', 'animals'], ['zero', 'nothing'], ['zone', 'area'], ['zipper', 'jacket'], ['zinc', 'metal'], ['zigzag', 'line']],
};

// ------------------------------------------------------------------------------------------------------------
// Games

export const PUBLIC_GOODS_REASONS = [
  'If we both give, we both end up with more.', 'I want to build trust with my partner.', 'I will give a fair share and see what happens.',
  'I want to keep some money safe.', 'My partner gave a lot last time, so I will too.', 'My partner gave little, so I will be careful.',
  'Giving half seems fair.', 'The pot grows, so giving is a good deal for both of us.', 'I do not want to lose too much if my partner keeps everything.',
  'Cooperation pays off in the long run.', 'I will match what my partner did.', 'This is the last round, so I will keep more.',
];

// ------------------------------------------------------------------------------------------------------------
// Novelty

export const GIRL_NAMES = ['Lucy', 'Maya', 'Rosa', 'Hanna', 'Emma', 'Lila', 'Nina', 'Clara', 'June', 'Ada', 'Mila', 'Ivy', 'Tess', 'Ruby', 'Elsa', 'Nell'];
export const DOG_NAMES = ['Biscuit', 'Max', 'Pepper', 'Buddy', 'Luna', 'Scout', 'Rusty', 'Daisy', 'Bear', 'Coco', 'Milo', 'Rex', 'Honey', 'Shadow'];
export const STORY_PLACES = ['the park', 'the beach', 'the forest', 'the farm', 'a snowy hill', 'the river', 'the city market', 'the old lighthouse', 'the meadow', 'the train station'];
export const STORY_EVENTS = [
  'found a lost kitten', 'chased a red kite', 'got caught in the rain', 'dug up an old key', 'helped a lost boy find his mother',
  'followed a strange noise', 'won a prize at the fair', 'found a message in a bottle', 'got lost in the fog', 'saved a duckling from the water',
  'built a sand castle', 'found a hidden path', 'watched the sunrise', 'heard a bird singing at night',
];
export const STORY_ENDINGS = [
  'They walked home together, tired and happy.', 'From that day on, they were never apart.', 'That night, the dog slept at the foot of her bed.',
  'She laughed and hugged her dog.', 'It was the best day of the summer.', 'They promised to come back the next day.',
];
export const FIGURE_FIRST = ['Elias', 'Marta', 'Tobias', 'Ilsa', 'Bartholomew', 'Agnes', 'Cyrus', 'Helena', 'Oswin', 'Livia', 'Ambrose', 'Petra', 'Silas', 'Odile'];
export const FIGURE_LAST = ['Vandermeer', 'Quill', 'Harrow', 'Fenwick', 'Ostrander', 'Lark', 'Calloway', 'Brisk', 'Moravec', 'Thistle', 'Dunmore', 'Velasco'];
export const FIGURE_JOBS = ['mapmaker', 'astronomer', 'shipbuilder', 'physician', 'inventor', 'poet', 'botanist', 'bridge builder', 'clockmaker', 'teacher', 'explorer', 'painter'];
export const FIGURE_PLACES = ['a small port town', 'the northern mountains', 'a river village', 'the old capital', 'a farming valley', 'an island in the south sea'];
export const FIGURE_DEEDS = [
  'drew the first accurate map of the coast', 'invented a lamp that burned less oil', 'found a cure for a common fever',
  'built a bridge that still stands today', 'wrote poems that every child learned', 'named over two hundred plants',
  'measured the path of a comet', 'made a clock that never lost a minute', 'opened the first free school in the region',
  'sailed around the southern cape', 'designed a stronger kind of ship', 'taught farmers to rotate their crops',
];
export const HAIKU_LINES_1 = ['A whale sings below', 'Deep blue whale rising', 'The old walnut tree', 'Waves roll past the shore', 'Under the grey sea', 'Quiet autumn wind', 'A great whale passes', 'Walnuts fall at dusk'];
export const HAIKU_LINES_2 = ['the walnut tree holds the wind', 'a walnut drops in the tide', 'roots dream of the deep ocean', 'two giants far apart', 'salt spray on the walnut leaves', 'the whale hears the branches sway', 'the tree and the whale both old', 'shade falls on the quiet bay'];
export const HAIKU_LINES_3 = ['both wait for the spring', 'the sea hums softly', 'one song, two homes', 'the moon watches both', 'old friends never meet', 'the tide carries leaves', 'night falls on the bay', 'time moves slow for them'];
export const VACATION_THINGS = [
  'having time to rest without an alarm clock', 'seeing a new place with fresh eyes', 'spending long days with family',
  'eating food you have never tried', 'forgetting about work for a while', 'swimming in the sea every morning',
  'reading a book from start to end', 'meeting new people', 'sleeping in late', 'walking without any plan',
  'watching the sunset with nothing to do', 'coming home with new stories',
];
export const BRAINSTORM: Record<string, string[]> = {
  story: ['a girl and her dog find a lost kitten', 'the dog saves the girl from a storm', 'they explore an old lighthouse', 'the dog learns a new trick for the fair',
    'a rainy day turns into an adventure', 'the girl teaches her dog to swim', 'they follow a strange map', 'the dog finds a buried key', 'a trip to the snowy hills', 'a picnic goes wrong'],
  biography: ['a mapmaker who drew the coast', 'an inventor of a new lamp', 'a doctor in a small village', 'a poet from the mountains', 'a woman who built a bridge',
    'an astronomer who found a comet', 'a teacher who opened a free school', 'an explorer who sailed south', 'a clockmaker of the old capital', 'a botanist who named plants'],
  haiku: ['the whale singing in deep water', 'walnuts falling into the sea', 'the tree and the whale are both old', 'seasons on the shore', 'the sound of waves and leaves',
    'roots and fins', 'a storm over the bay', 'moonlight on water and branches', 'the whale sees the tree from far', 'autumn by the ocean'],
  vacation: ['rest and sleep', 'new food', 'time with family', 'no work emails', 'swimming in the sea', 'seeing new places', 'reading books', 'long walks', 'meeting people', 'sunsets'],
};

// ------------------------------------------------------------------------------------------------------------
// Polarization topics

export const TOPICS: { name: string; statement: string; pro: string[]; con: string[]; neutral: string[] }[] = [
  { name: 'gun control', statement: 'Stricter gun control laws',
    pro: ['fewer guns would mean fewer deaths', 'background checks keep guns from dangerous people', 'other countries with strict laws are safer'],
    con: ['people have a right to defend themselves', 'criminals do not follow gun laws', 'hunting is part of our tradition'],
    neutral: ['both safety and rights matter', 'I need to learn more about it', 'there are good points on both sides'] },
  { name: 'abortion bans', statement: 'Banning abortion',
    pro: ['every life should be protected', 'my faith teaches that life is sacred', 'there are other options like adoption'],
    con: ['women should decide about their own bodies', 'bans put women in danger', 'the government should stay out of private choices'],
    neutral: ['it is a very personal question', 'I see why people feel strongly on both sides', 'I am still unsure'] },
  { name: 'party alignment', statement: 'Supporting the Republican party over the Democratic party',
    pro: ['lower taxes help families', 'I trust their view on the economy', 'they protect traditional values'],
    con: ['they do not care about workers', 'I trust the Democrats on health care', 'they ignore climate change'],
    neutral: ['both parties have problems', 'I vote for the person, not the party', 'politics is too divided'] },
  { name: 'nuclear power', statement: 'Building more nuclear power plants',
    pro: ['nuclear power is clean', 'it gives steady power day and night', 'it helps fight climate change'],
    con: ['accidents can be terrible', 'the waste stays dangerous for a long time', 'solar and wind are cheaper now'],
    neutral: ['it depends on the safety rules', 'I do not know enough about it', 'it has risks and benefits'] },
  { name: 'remote work', statement: 'Letting most office workers work from home',
    pro: ['people save hours of travel', 'workers are happier at home', 'it is better for the environment'],
    con: ['teams work better in person', 'young workers learn less at home', 'city shops lose customers'],
    neutral: ['it depends on the job', 'a mix of both seems fine', 'I can see both sides'] },
  { name: 'social media for teens', statement: 'Banning social media for children under sixteen',
    pro: ['social media hurts mental health', 'kids need time away from screens', 'it protects children from strangers'],
    con: ['parents should decide, not the law', 'kids use it to stay in touch with friends', 'a ban would be easy to get around'],
    neutral: ['some rules might help', 'it depends on how it is used', 'I am not sure a ban works'] },
  { name: 'immigration', statement: 'Reducing the number of immigrants allowed each year',
    pro: ['jobs should go to citizens first', 'cities cannot keep up with growth', 'the system needs to be fixed first'],
    con: ['immigrants help the economy grow', 'our country was built by immigrants', 'families should be able to stay together'],
    neutral: ['we need a fair and clear system', 'both sides have a point', 'it is complicated'] },
  { name: 'meat tax', statement: 'A tax on meat to fight climate change',
    pro: ['meat farming causes a lot of pollution', 'it would push people to eat healthier', 'the money could help farmers change'],
    con: ['food prices are already too high', 'it hurts poor families most', 'people should choose what they eat'],
    neutral: ['there may be better ways', 'I would need to see the details', 'it has pros and cons'] },
  { name: 'school uniforms', statement: 'Making school uniforms required',
    pro: ['uniforms stop bullying about clothes', 'they help students focus', 'they save parents money'],
    con: ['kids should express themselves', 'uniforms cost money too', 'they do not improve grades'],
    neutral: ['it depends on the school', 'I do not mind either way', 'both sides make sense'] },
  { name: 'universal basic income', statement: 'Giving every adult a basic monthly income',
    pro: ['it would end extreme poverty', 'people could take better jobs', 'machines are taking many jobs'],
    con: ['it would cost far too much', 'people might stop working', 'help should go to those who need it'],
    neutral: ['it should be tested first', 'the idea is interesting but risky', 'I am unsure'] },
];

export const TOPIC_LEANS = ['supporter', 'opponent'];
