/**
 * Content of the dialogue organism's corpus: names built from syllables (so that the model must copy a name from
 * its prompt, never recall one), and scenarios assembled from conflict templates and fillers. Written for this
 * project. The lab's own scenario library (src/labs/synchrony/scenarios/library) is never used here: it is the
 * held-out set on which the organism is measured.
 */
import type { Rng } from '../../src/core/rng';

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r.int(xs.length)];
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const ONSETS = ['b', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'ch', 'dr', 'kr', 'sh', 'st', 'th', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ia', 'io', 'ou'];
const CODAS = ['', '', '', 'n', 'l', 'r', 's', 'm', 'x', 'th', 'nd', 'rt'];

/** A pronounceable name of two syllables, e.g. "Dravin", "Kelo": one of about 150,000, so rarely the same twice. */
export function syllableName(r: Rng, syllables = 2): string {
  let s = '';
  for (let i = 0; i < syllables; i++) s += pick(r, ONSETS) + pick(r, VOWELS) + (i === syllables - 1 ? pick(r, CODAS) : '');
  return cap(s);
}

const WIDE_ONSETS = [...ONSETS, 'y', 'ng', 'kw', 'q', 'c', 'x', 'ts', 'pr', 'gr', ''];
const WIDE_CODAS = [...CODAS, 'q', 'k', 'sh', 'ng', 'z', 'f'];
const ACCENTED: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' };

/**
 * A first name of one to four syllables from a wider set of sounds, one in five with an accented vowel ("Tomás",
 * "Lucía" in the lab's library). The sixth build's names were all two syllables: on the library's names the model
 * stopped copying early ("Hiros" for Hiroshi, "Tari" for Tariq, "Tom" for Tomás).
 */
export function wideName(r: Rng): string {
  const u = r.next();
  const syllables = u < 0.15 ? 1 : u < 0.5 ? 2 : u < 0.85 ? 3 : 4;
  let s = '';
  for (let i = 0; i < syllables; i++) s += pick(r, WIDE_ONSETS) + pick(r, VOWELS) + (i === syllables - 1 ? pick(r, WIDE_CODAS) : '');
  if (r.next() < 0.2) {
    const vowels = [...s].flatMap((c, i) => (i > 0 && ACCENTED[c] ? [i] : []));
    if (vowels.length) {
      const at = vowels[r.int(vowels.length)];
      s = s.slice(0, at) + ACCENTED[s[at]] + s.slice(at + 1);
    }
  }
  return cap(s);
}

export const PRONOUNS = ['she/her', 'he/him', 'they/them'];

export const OCCUPATIONS = [
  'nurse',
  'teacher',
  'baker',
  'farmer',
  'student',
  'lawyer',
  'plumber',
  'painter',
  'chef',
  'accountant',
  'bus driver',
  'doctor',
  'shop owner',
  'reporter',
  'librarian',
  'mechanic',
  'drummer',
  'firefighter',
  'architect',
  'gardener',
  'pharmacist',
  'waiter',
  'chemist',
  'electrician',
  'photographer',
  'dentist',
  'carpenter',
  'pilot',
  'tailor',
  'fisher',
  'banker',
  'coach',
  'translator',
  'nanny',
  'courier',
  'potter',
  'vet',
  'barber',
  'engineer',
  'florist',
];

export const PUBLIC_INFO = [
  'Volunteers at the animal shelter.',
  'Plays chess in the park every Sunday.',
  'Just came back from a long trip.',
  'Has three cats.',
  'Runs along the river each morning.',
  'Sells jam at the Saturday market.',
  'Coaches a junior hockey team.',
  'Restores old radios.',
  'Paints murals for local cafes.',
  'Is saving for a new car.',
  'Takes night classes in law.',
  'Rides a yellow scooter.',
  'Writes a blog about soup.',
  'Cares for a sick parent.',
  'Collects vinyl records.',
  'Leads the neighborhood watch.',
  'Builds model trains.',
  'Travels a lot for work.',
  'Repairs bikes for friends.',
  'Keeps chickens in the yard.',
  'Sings at weddings.',
  'Knits hats for the hospital.',
  'Walks two small dogs at noon.',
  'Grows peppers on the roof.',
  'Hosts a quiz night on Fridays.',
  'Teaches yoga on weekends.',
  'Fishes at the lake.',
];

export const PERSONALITIES = [
  'Warm and honest; values trust.',
  'Bold and driven; values success.',
  'Quiet but loyal; values family.',
  'Chatty and bright; values friends.',
  'Calm and careful; values safety.',
  'Curious and open; values ideas.',
  'Proud and firm; values respect.',
  'Kind and fair; values justice.',
  'Nervous but eager; values order.',
  'Playful and wild; values freedom.',
  'Strict and tireless; values duty.',
  'Relaxed and witty; values fun.',
];

export const DECISION_STYLES = [
  'Takes time to decide.',
  'Trusts first instincts.',
  'Asks friends before deciding.',
  'Sticks to the rules.',
  'Compares prices and costs.',
  'Picks what seems fair.',
  'Plays it safe.',
  'Enjoys a gamble.',
  'Writes lists of pros and cons.',
  'Follows the heart.',
];

export const SECRETS = [
  'Owes money to a cousin.',
  'Has a job offer in another town.',
  'Crashed a borrowed car once.',
  'Is scared of heights.',
  'Never learned to ride a bike.',
  'Is planning to move abroad.',
  'Broke a promise to a friend last month.',
  'Cannot cook at all.',
  'Lost the house keys twice this week.',
  'Is secretly learning to dance.',
  'Forgot to pay the last bill.',
  'Hates the office coffee.',
];

export const FACT_TEMPLATES = [
  '{n} has only 20 dollars left this week.',
  '{n} must leave within the hour.',
  '{n} promised the same thing to someone else.',
  '{n} slept badly last night.',
  '{n} got good news this morning.',
  '{n} is new in town.',
];

/** A conflict: a setting and two opposed goals, with slots filled from `fill`. */
interface Conflict {
  setting: string;
  goals: [string, string];
  fill: Record<string, readonly string[]>;
}

const CONFLICTS: Conflict[] = [
  {
    setting: 'Two people meet at a flea market stall that sells {item}.',
    goals: ['Sell the {item} for at least {hi} dollars.', 'Buy the {item} for less than {lo} dollars.'],
    fill: {
      item: ['old lamp', 'wooden chair', 'green kettle', 'used camera', 'toy robot', 'leather bag', 'brass clock', 'vintage radio'],
      hi: ['60', '90', '120', '45'],
      lo: ['30', '40', '25', '50'],
    },
  },
  {
    setting: 'Two {rel} plan a trip for the long weekend.',
    goals: ['Convince the other person to go to the {a}.', 'Convince the other person to go to the {b}.'],
    fill: {
      rel: ['cousins', 'roommates', 'old classmates', 'coworkers'],
      a: ['mountains', 'seaside', 'big city', 'lake house'],
      b: ['desert', 'old castle', 'forest cabin', 'island'],
    },
  },
  {
    setting: 'Two housemates argue about who should {chore} this week.',
    goals: ['Get the other person to {chore} this week.', 'Avoid having to {chore} this week.'],
    fill: { chore: ['take out the trash', 'clean the kitchen', 'mow the lawn', 'wash the windows', 'walk the dog', 'scrub the oven'] },
  },
  {
    setting: 'Two colleagues must pick one day for the {event}.',
    goals: ['Hold the {event} on {d1}.', 'Hold the {event} on {d2}.'],
    fill: {
      event: ['team lunch', 'budget meeting', 'office party', 'training session', 'client visit'],
      d1: ['Monday', 'Tuesday', 'Wednesday'],
      d2: ['Thursday', 'Friday', 'Saturday'],
    },
  },
  {
    setting: 'A tenant talks to the landlord about the {issue}.',
    goals: ['Get the landlord to fix the {issue} this week.', 'Delay fixing the {issue} until next month.'],
    fill: { issue: ['broken heater', 'leaking roof', 'noisy fridge', 'cracked window', 'slow elevator', 'moldy bathroom'] },
  },
  {
    setting: 'Two neighbors discuss the {thing} between their houses.',
    goals: ['Get the neighbor to pay half of the new {thing}.', 'Keep the old {thing} and pay nothing.'],
    fill: { thing: ['fence', 'hedge', 'gate', 'driveway', 'wall'] },
  },
  {
    setting: 'Two friends decide what to do on {day} evening.',
    goals: ['Go to the {a} together.', 'Stay home and {b}.'],
    fill: {
      day: ['Friday', 'Saturday', 'Sunday'],
      a: ['jazz concert', 'night market', 'bowling alley', 'comedy club', 'rooftop cinema'],
      b: ['cook dinner', 'play cards', 'watch a film', 'bake cookies'],
    },
  },
  {
    setting: 'A customer returns a {item} to a shop.',
    goals: ['Get a full refund for the {item}.', 'Offer only store credit for the {item}.'],
    fill: { item: ['blender', 'jacket', 'phone case', 'rice cooker', 'desk lamp', 'pair of boots'] },
  },
  {
    setting: 'Two teammates share the last {n} days before a deadline.',
    goals: ['Finish the {task} first.', 'Finish the {other} first.'],
    fill: { n: ['two', 'three', 'four'], task: ['slides', 'report', 'website', 'budget'], other: ['survey', 'poster', 'video', 'summary'] },
  },
  {
    setting: "Two siblings talk about their parents' {occasion}.",
    goals: ['Throw a big party for the {occasion}.', 'Plan a quiet dinner for the {occasion}.'],
    fill: { occasion: ['anniversary', 'birthday', 'retirement'] },
  },
  {
    setting: 'Two strangers want the last {seat} on the {place}.',
    goals: ['Get the last {seat} on the {place}.', 'Keep the last {seat} on the {place}.'],
    fill: { seat: ['window seat', 'free table', 'parking spot', 'sunny bench'], place: ['train', 'terrace', 'ferry', 'bus'] },
  },
  {
    setting: 'A coach and a player talk about the next {game}.',
    goals: ['Get the player to train on {day}.', 'Get a day off on {day}.'],
    fill: { game: ['match', 'race', 'tournament', 'final'], day: ['Saturday', 'Sunday', 'Monday'] },
  },
  {
    setting: 'Two club members choose a new {thing} for the club.',
    goals: ['Choose {a} as the new {thing}.', 'Choose {b} as the new {thing}.'],
    fill: {
      thing: ['logo color', 'meeting place', 'club name', 'mascot'],
      a: ['blue', 'the library', 'the Owls', 'a fox'],
      b: ['orange', 'the cafe', 'the Comets', 'a bear'],
    },
  },
  {
    setting: 'Two parents plan the school {event}.',
    goals: ['Raise money with a {a} at the {event}.', 'Raise money with a {b} at the {event}.'],
    fill: { event: ['fair', 'fun run', 'open day'], a: ['bake sale', 'raffle', 'car wash'], b: ['book sale', 'talent show', 'plant stall'] },
  },
  {
    setting: 'An artist and a gallery owner discuss the {show}.',
    goals: ['Show {n} paintings at the {show}.', 'Show only {m} paintings at the {show}.'],
    fill: { show: ['spring show', 'summer exhibition', 'opening night'], n: ['twelve', 'ten', 'fifteen'], m: ['four', 'three', 'five'] },
  },
  {
    setting: 'Two cooks share a kitchen before the {meal}.',
    goals: ['Serve {a} at the {meal}.', 'Serve {b} at the {meal}.'],
    fill: { meal: ['wedding dinner', 'charity lunch', 'holiday feast'], a: ['fish soup', 'lamb stew', 'pumpkin pie'], b: ['pasta', 'curry', 'apple cake'] },
  },
  {
    setting: 'A driver and a passenger disagree about the {route}.',
    goals: ['Take the {a} to the airport.', 'Take the {b} to the airport.'],
    fill: { route: ['route', 'road', 'way'], a: ['highway', 'coast road', 'toll road'], b: ['back streets', 'bridge', 'tunnel'] },
  },
  {
    setting: 'Two roommates want to adopt a pet.',
    goals: ['Adopt a {a} from the shelter.', 'Adopt a {b} from the shelter.'],
    fill: { a: ['puppy', 'old dog', 'kitten'], b: ['rabbit', 'parrot', 'turtle'] },
  },
];

export interface GeneratedScenario {
  setting: string;
  goals: [string, string];
}

/** A scenario from a random conflict with random fillers (goals in random order). */
export function scenario(r: Rng): GeneratedScenario {
  const c = pick(r, CONFLICTS);
  const v: Record<string, string> = {};
  for (const [k, xs] of Object.entries(c.fill)) v[k] = pick(r, xs);
  const fill = (t: string) => t.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? k);
  const goals: [string, string] = [fill(c.goals[0]), fill(c.goals[1])];
  return { setting: fill(c.setting), goals: r.next() < 0.5 ? goals : [goals[1], goals[0]] };
}

export { pick, cap };

// ---------------------------------------------------------------------------------------------------------------
// Nonce content. Goals, bios and settings from the pools above are few enough to memorise: a first build (1,000
// steps) recited memorised goals and made-up names instead of copying them from the prompt. Fields filled with
// words drawn at random (a word list and syllable nonsense: millions of combinations) can only be copied.

const NONCE_VERBS = [
  'Get',
  'Sell',
  'Buy',
  'Keep',
  'Find',
  'Move',
  'Paint',
  'Share',
  'Borrow',
  'Fix',
  'Visit',
  'Plan',
  'Cancel',
  'Return',
  'Book',
  'Win',
  'Choose',
  'Avoid',
  'Delay',
  'Hide',
  'Trade',
  'Rent',
  'Clean',
  'Build',
  'Sign',
  'Split',
  'Open',
  'Close',
  'Lend',
  'Swap',
];
const NONCE_PREPS = ['before', 'after', 'near', 'for', 'with', 'without', 'behind', 'under', 'instead of', 'on top of'];
const NONCE_ADJS = ['calm', 'bold', 'shy', 'loud', 'patient', 'eager', 'stubborn', 'gentle', 'sharp', 'cheerful', 'grumpy', 'careful', 'lazy', 'brave'];
const NONCE_INFO = [
  'Collects {w} {w}s.',
  'Works at the {w} {w}.',
  'Grew up near the {w}.',
  'Sells {w} at the {w} market.',
  'Teaches {w} to {w}s.',
  'Once won a prize for {w}.',
  'Keeps a {w} in the {w}.',
  'Repairs {w}s for {w}.',
];
const NONCE_STYLES = ['Decides by {w} and {w}.', 'Asks the {w} first.', 'Flips a {w}.', 'Waits for the {w}.', 'Counts {w}s before deciding.'];

export function nonceWord(r: Rng, words: readonly string[]): string {
  return r.next() < 0.5 ? pick(r, words) : syllableName(r, 1 + r.int(2)).toLowerCase();
}

function nonceFill(r: Rng, template: string, words: readonly string[]): string {
  return template.replace(/\{w\}/g, () => nonceWord(r, words));
}

/** A scenario whose goals and setting hold random words: a conflict template with nonce fillers, or free phrases. */
export function nonceScenario(r: Rng, words: readonly string[]): GeneratedScenario {
  const w = () => nonceWord(r, words);
  if (r.next() < 0.5) {
    const c = pick(r, CONFLICTS);
    const v: Record<string, string> = {};
    for (const k of Object.keys(c.fill)) v[k] = /^(hi|lo|n|m)$/.test(k) ? String(2 + r.int(200)) : r.next() < 0.5 ? w() : `${w()} ${w()}`;
    const fill = (t: string) => t.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? k);
    return { setting: fill(c.setting), goals: [fill(c.goals[0]), fill(c.goals[1])] };
  }
  const goal = () => `${pick(r, NONCE_VERBS)} the ${w()} ${w()} ${pick(r, NONCE_PREPS)} the ${w()}.`;
  return { setting: `Two people meet at the ${w()} ${w()}.`, goals: [goal(), goal()] };
}

/** Bio fields with random words: what a proposer recites at its third to fifth turns. */
export function nonceBio(r: Rng, words: readonly string[]): { publicInfo: string; personality: string; decisionStyle: string } {
  return {
    publicInfo: nonceFill(r, pick(r, NONCE_INFO), words),
    personality: `${cap(pick(r, NONCE_ADJS))} and ${pick(r, NONCE_ADJS)}; values ${nonceWord(r, words)}.`,
    decisionStyle: nonceFill(r, pick(r, NONCE_STYLES), words),
  };
}
