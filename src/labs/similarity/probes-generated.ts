/**
 * Deterministic generator for the rest of the `builtin-paragraphs` probe set: encyclopedia-style entries about
 * invented towns, invented people and invented species, assembled from sentence templates × phrase pools written
 * for this project. Every draw goes through the project's seeded RNG with a fixed seed, so the output is the same
 * everywhere. A candidate is kept only if it has 35–90 words and shares at most MAX_GENERATED_OVERLAP of its word
 * 4-grams with every paragraph kept before it (hand-written ones included), so the set has no near-duplicates.
 */
import { createRng, type Rng } from '../../core/rng';

/** Overlap ceiling used while generating (stricter than the 0.6 that the tests check). */
export const MAX_GENERATED_OVERLAP = 0.4;

/** Lower-cased word tokens (letters, digits, apostrophes and hyphens inside words). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9'\u00c0-\u024f-]+/)
    .filter((w) => w.length > 0);
}

export function wordCount(text: string): number {
  return text
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0).length;
}

export function fourGrams(text: string): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + 4 <= w.length; i++) out.add(`${w[i]} ${w[i + 1]} ${w[i + 2]} ${w[i + 3]}`);
  return out;
}

/** Shared 4-grams as a fraction of the smaller paragraph's 4-grams (0 when either has none). */
export function fourGramOverlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const g of small) if (large.has(g)) shared++;
  return shared / small.size;
}

const pick = <T>(rng: Rng, arr: readonly T[]): T => arr[rng.int(arr.length)];
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const article = (w: string): string => (/^[aeiou]/i.test(w) ? 'an' : 'a');

// ---------------------------------------------------------------- towns
const TOWN_HEADS = [
  'Bris',
  'Calde',
  'Drum',
  'Eskel',
  'Farra',
  'Gorran',
  'Hollin',
  'Istra',
  'Jorvel',
  'Kessa',
  'Lummen',
  'Marrow',
  'Orlin',
  'Pardue',
  'Quen',
  'Rillam',
  'Sabber',
  'Tolvan',
  'Umber',
  'Vessel',
  'Wendle',
  'Yarrow',
];
const TOWN_TAILS = ['mere', 'wick', 'haven', 'by', 'stead', 'brook', 'holm', 'combe', 'field', 'gate', 'moor'];
const TOWN_KINDS = ['town', 'village', 'small city', 'market town'];
const TOWN_SETTINGS = [
  'on the edge of a wide salt marsh',
  'in a narrow valley between two limestone ridges',
  'at the mouth of a slow brown river',
  'on a plateau above a forest of pines',
  'beside a deep glacial lake',
  'on a chain of low islands joined by causeways',
  'at a crossroads on an old trade route',
  'on the southern slopes of an extinct volcano',
  'among terraced vineyards above a river gorge',
  'at the head of a long sea inlet',
  'in flat farmland crossed by drainage ditches',
  'on a rocky headland facing the open ocean',
];
const CENTURIES = ['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth'];
const FOUNDERS = [
  'a band of shepherds from the uplands',
  'monks seeking a quiet retreat',
  'refugees from a flooded lowland town',
  'a family of ferrymen',
  'traders who used the site as a winter camp',
  'miners following a seam of copper',
  'fishers driven inland by a run of violent storms',
  'veterans granted land after a long war',
];
const DRAWS = [
  'its reliable spring water',
  'the fertile soil along the riverbanks',
  'a sheltered natural harbour',
  'rich deposits of clay',
  'the safety of its high ground',
  'plentiful timber',
  'a ford that could be crossed in every season',
  'seams of iron ore in the nearby hills',
];
const ANCHORS = ['a stone bridge', 'a toll house', 'a small abbey', 'a watermill', 'a fortified manor', 'a busy ferry landing'];
const INDUSTRIES: readonly (readonly [string, string])[] = [
  ['weaving wool into heavy blankets', 'the old dye works by the river still tints the water blue after heavy rain'],
  ['making barrels for the wine trade', "coopers' marks can still be seen carved into many doorframes"],
  ['harvesting salt from shallow pans', 'the flat grey pans once stretched for kilometres along the shore'],
  ['quarrying a pale golden stone', 'grand buildings in several distant cities are faced with it'],
  ['keeping bees and selling honey', 'the town seal still shows a straw hive surrounded by clover'],
  ['building small wooden boats', 'the slipways are used by amateur shipwrights every summer'],
  ['growing pears and pressing them into perry', 'orchards still surround the settlement on three sides'],
  ['making clocks and precision instruments', 'a guild of clockmakers once set the official hours for the whole valley'],
  ['smoking fish over oak chips', 'the smokehouses give the harbour a smell that visitors rarely forget'],
  ['printing almanacs and road maps', 'a hand press from that era is kept in working order in the town hall'],
  ['casting church bells', 'bells from its foundry hang in towers across the province'],
  ['cutting peat for fuel', 'the drained bogs have since been flooded again to make a wetland reserve'],
];
const MODERN = [
  'tourism and small engineering firms',
  'healthcare and education',
  'software and remote office jobs',
  'warehousing and transport',
  'wind and solar energy',
  'food processing',
];
const LANDMARKS: readonly (readonly [string, string])[] = [
  ['a crooked bell tower', 'which leans noticeably to the west and has done so for four hundred years'],
  ['a covered bridge with painted rafters', 'whose ceiling shows scenes from local folk tales'],
  ['a library housed in a former granary', 'which holds a collection of handwritten recipe books'],
  ['a sundial the size of a tennis court', 'laid out in coloured stones in the main square'],
  ['a ring of standing stones on the hill above', 'whose purpose is still debated by archaeologists'],
  ['a lighthouse converted into a small observatory', 'open to the public on clear evenings'],
  ['a market hall with a roof of green copper', 'where traders have met every Thursday for generations'],
  ['a hedge maze planted by an eccentric mayor', 'which takes most visitors about an hour to solve'],
];
const FESTIVALS: readonly (readonly [string, string])[] = [
  ['a boat race on the river', 'crews in home-made boats compete for a carved wooden oar'],
  ['a festival of bread', 'every bakery tries to bake the largest loaf and the winner is shared out in the square'],
  ['a night of bonfires', 'residents light fires on the surrounding hills to welcome the new season'],
  ['an open chess tournament', 'players sit at long tables under the trees and anyone may challenge the reigning champion'],
  ['a procession of masks', 'children parade through the streets in masks they have carved during the winter'],
  ['a lantern walk', 'families carry paper lanterns along the old walls at dusk'],
  ['a festival of kites', 'the meadows fill with kites shaped like fish, birds and dragons'],
  ['a sheep fair', 'farmers from the whole district bring their flocks to be judged'],
];
const SEASONS = ['spring', 'summer', 'autumn', 'winter'];
const POPULATIONS = [
  'about two thousand',
  'roughly five thousand',
  'a little under twelve thousand',
  'around eight hundred',
  'nearly thirty thousand',
  'about fifteen hundred',
];
const POP_NOTES = [
  'roughly double what it was a century ago',
  'though it swells considerably in summer',
  'many of whom commute to larger towns nearby',
  'and it has been slowly shrinking for decades',
];

function town(rng: Rng, name: string): string {
  const kind = pick(rng, TOWN_KINDS);
  const setting = pick(rng, TOWN_SETTINGS);
  const intro = pick(rng, [
    () => `${name} is a fictional ${kind} ${setting}.`,
    () => `The invented ${kind} of ${name} lies ${setting}.`,
    () => `${name}, an imaginary ${kind}, stands ${setting}.`,
    () => `Set ${setting}, ${name} is ${article(kind)} ${kind} that exists only in this collection of examples.`,
  ])();
  const century = pick(rng, CENTURIES);
  const founders = pick(rng, FOUNDERS);
  const draw = pick(rng, DRAWS);
  const history = pick(rng, [
    () => `According to its own chronicles, it was founded in the ${century} century by ${founders}, who were drawn by ${draw}.`,
    () => `The first settlers, ${founders}, arrived in the ${century} century, attracted by ${draw}.`,
    () => `Local tradition holds that ${founders} established it in the ${century} century because of ${draw}.`,
    () => `It grew up in the ${century} century around ${pick(rng, ANCHORS)}, and its early prosperity owed much to ${draw}.`,
  ])();
  const [industry, detail] = pick(rng, INDUSTRIES);
  const economy = pick(rng, [
    () => `For centuries the local economy depended on ${industry}, and ${detail}.`,
    () => `Its wealth came mainly from ${industry}; ${detail}.`,
    () => `Today most residents work in ${pick(rng, MODERN)}, although ${industry} still employs a few families.`,
    () => `${name} became known across the region for ${industry}, and ${detail}.`,
  ])();
  const season = pick(rng, SEASONS);
  const sight = pick(rng, [
    () => {
      const [l, d] = pick(rng, LANDMARKS);
      return `Its best-known landmark is ${l}, ${d}.`;
    },
    () => {
      const [l, d] = pick(rng, LANDMARKS);
      return `Visitors come mainly to see ${l}, ${d}.`;
    },
    () => {
      const [f, d] = pick(rng, FESTIVALS);
      return `Every ${season} it holds ${f}, when ${d}.`;
    },
    () => {
      const [, d] = pick(rng, FESTIVALS);
      return `An old custom survives there: each ${season}, ${d}.`;
    },
  ])();
  const parts = [intro, history, economy, sight];
  if (rng.next() < 0.5) parts.push(`The population is ${pick(rng, POPULATIONS)}, ${pick(rng, POP_NOTES)}.`);
  return parts.join(' ');
}

// ---------------------------------------------------------------- people
const GIVEN_F = [
  'Ada',
  'Brigit',
  'Corra',
  'Delphine',
  'Edda',
  'Freya',
  'Greta',
  'Hesper',
  'Ione',
  'Juno',
  'Katya',
  'Lisbet',
  'Mira',
  'Nell',
  'Odile',
  'Petra',
  'Rosalind',
  'Sabine',
  'Tova',
  'Ysolde',
];
const GIVEN_M = [
  'Anselm',
  'Bram',
  'Cassius',
  'Dorian',
  'Emeric',
  'Florian',
  'Gideon',
  'Hal',
  'Ivo',
  'Jasper',
  'Kasimir',
  'Leopold',
  'Magnus',
  'Nils',
  'Oren',
  'Piet',
  'Rufus',
  'Silas',
  'Teodor',
  'Ulric',
];
const SURNAMES = [
  'Albright',
  'Brennock',
  'Castellan',
  'Dunmore',
  'Evershaw',
  'Falkner',
  'Greywell',
  'Hartigan',
  'Ingram',
  'Jessop',
  'Kilbride',
  'Larchmont',
  'Mortensen',
  'Nightingale',
  'Oakes',
  'Penhallow',
  'Quarrie',
  'Rendell',
  'Strand',
  'Thorne',
  'Underhill',
  'Vantongeren',
  'Whitlock',
];
const BIRTHPLACES = [
  'in a fishing village on a windy northern coast',
  'in a mining town in the eastern hills',
  'in a farming hamlet beside a reed marsh',
  'in a busy river port',
  'in a market town known for its horse fairs',
  'on an island reached only by a weekly ferry',
  'in a cathedral city in the south',
  'at a railway junction on an open plain',
];
const TRAININGS = [
  'as an apprentice to a village blacksmith',
  'at a small technical college',
  'under an uncle who repaired ships',
  'in the archives of a provincial museum',
  'at a conservatory in the capital',
  'as a clerk in a shipping office',
  "at a teachers' college far from home",
  'in a busy printing works',
];
interface Profession {
  title: string;
  interest: string;
  work: string;
  legacy: string;
}
const PROFESSIONS: readonly Profession[] = [
  {
    title: 'cartographer',
    interest: 'coastal surveying',
    work: 'a set of charts of a remote archipelago, drawn from a small sailing boat over eleven summers',
    legacy: 'fishing crews relied on the charts for decades',
  },
  {
    title: 'botanist',
    interest: 'mountain plants',
    work: 'a catalogue of more than six hundred alpine flowers, each illustrated by hand',
    legacy: 'walkers still carry pocket editions of the catalogue',
  },
  {
    title: 'architect',
    interest: 'cheap and sturdy housing',
    work: 'a design for terraced houses built from rammed earth and recycled timber',
    legacy: 'whole streets of those houses are still lived in',
  },
  {
    title: 'chemist',
    interest: 'natural dyes',
    work: 'a method for fixing plant dyes to cotton without toxic metal salts',
    legacy: 'small textile workshops adopted the method widely',
  },
  {
    title: 'engineer',
    interest: 'village water supply',
    work: 'a hand-operated pump that could be repaired with ordinary farm tools',
    legacy: 'thousands of the pumps were built under licence',
  },
  {
    title: 'astronomer',
    interest: 'variable stars',
    work: 'thousands of careful brightness measurements made with a modest rooftop telescope',
    legacy: 'later researchers reused the measurements to study long cycles in those stars',
  },
  {
    title: 'novelist',
    interest: 'stories of ordinary families',
    work: 'a cycle of nine novels following three families through a century of change',
    legacy: 'the novels are still set as reading in many schools',
  },
  {
    title: 'cook',
    interest: 'regional food',
    work: 'a cookbook that collected recipes from every village along a single river valley',
    legacy: 'several dishes from the book returned to restaurant menus',
  },
  {
    title: 'mathematician',
    interest: 'puzzles and number patterns',
    work: 'a proof about tiling patterns that had resisted solution for decades',
    legacy: 'the result is now taught in advanced geometry courses',
  },
  {
    title: 'teacher',
    interest: 'adult literacy',
    work: 'a network of evening schools for adults who had never learned to read',
    legacy: 'the schools were copied in many other regions',
  },
  {
    title: 'photographer',
    interest: 'portraits of working people',
    work: 'a series of portraits of dock workers, miners and market traders taken over thirty years',
    legacy: 'the portraits form a valuable record of vanished trades',
  },
  {
    title: 'doctor',
    interest: 'rural medicine',
    work: 'a travelling clinic that visited remote farms first by horse and later by motorbike',
    legacy: 'the clinic became a model for mobile health services',
  },
  {
    title: 'glassblower',
    interest: 'glass',
    work: 'a technique for making thin but remarkably tough drinking glasses',
    legacy: 'the technique is still used in several workshops',
  },
  {
    title: 'composer',
    interest: 'folk melodies',
    work: 'a collection of songs transcribed from shepherds and arranged for small choirs',
    legacy: 'amateur choirs continue to perform the arrangements',
  },
  {
    title: 'judge',
    interest: 'family law',
    work: 'a series of rulings that made it easier for children to be heard in custody disputes',
    legacy: 'the principles were later written into statute',
  },
  {
    title: 'economist',
    interest: 'local credit',
    work: 'a study of village savings clubs that shaped many small lending schemes',
    legacy: 'the study is still cited in debates on microfinance',
  },
  {
    title: 'runner',
    interest: 'endurance running',
    work: 'winning a gruelling mountain race across three valleys eleven times in a row',
    legacy: 'the race now awards a trophy in that name',
  },
  {
    title: 'librarian',
    interest: 'rare books',
    work: 'a catalogue of every book printed in the province before 1700',
    legacy: 'historians depend on the catalogue to this day',
  },
];
const ARCHIVES = ['in a university library', 'in a small museum in the home town', 'by a foundation run by former students', 'in the national archive'];

function person(rng: Rng): [string, string] {
  const female = rng.next() < 0.5;
  const given = pick(rng, female ? GIVEN_F : GIVEN_M);
  const name = `${given} ${pick(rng, SURNAMES)}`;
  const he = female ? 'she' : 'he';
  const his = female ? 'her' : 'his';
  const prof = pick(rng, PROFESSIONS);
  const born = 1780 + rng.int(140);
  const died = born + 52 + rng.int(40);
  const place = pick(rng, BIRTHPLACES);
  const intro = pick(rng, [
    () => `${name} (${born}–${died}) is a fictional ${prof.title} invented for these examples, born ${place}.`,
    () => `${name} is an imagined ${prof.title}, born in ${born} ${place}.`,
    () => `The invented ${prof.title} ${name} was born ${place} in ${born}.`,
    () => `Born in ${born} ${place}, ${name} is a made-up ${prof.title} whose life serves here as an example.`,
  ])();
  const training = pick(rng, [
    () => `${cap(he)} trained ${pick(rng, TRAININGS)} before turning to ${prof.interest}.`,
    () => `After training ${pick(rng, TRAININGS)}, ${he} devoted ${his} working life to ${prof.interest}.`,
    () => `${cap(his)} interest in ${prof.interest} began in childhood, and ${he} later trained ${pick(rng, TRAININGS)}.`,
  ])();
  const work = pick(rng, [
    () => `${cap(he)} is best remembered for ${prof.work}.`,
    () => `${cap(his)} most important achievement was ${prof.work}.`,
    () => `Colleagues admired ${his} patience, and ${his} reputation rests chiefly on ${prof.work}.`,
  ])();
  const end = pick(rng, [
    () => `${cap(he)} died in ${died}, and ${prof.legacy}.`,
    () => `${cap(he)} died in ${died}; ${his} notebooks are kept ${pick(rng, ARCHIVES)}.`,
    () => `${cap(his)} notebooks are kept ${pick(rng, ARCHIVES)}, and ${prof.legacy}.`,
  ])();
  return [name, [intro, training, work, end].join(' ')];
}

// ---------------------------------------------------------------- species
interface Kind {
  group: string;
  adult: string;
  bases: readonly string[];
  sizes: readonly string[];
  features: readonly string[];
  habits: readonly string[];
}
const ADJECTIVES = [
  'copper-throated',
  'ash-grey',
  'lantern',
  'moss',
  'dusk',
  'salt-marsh',
  'ember',
  'cloud',
  'thornback',
  'glossy',
  'speckled',
  'long-tailed',
  'river',
  'pale',
  'banded',
  'crested',
];
const KINDS: readonly Kind[] = [
  {
    group: 'songbird',
    adult: 'An adult',
    bases: ['warbler', 'finch', 'thrush', 'wren'],
    sizes: ['twelve centimetres long', 'about the size of a sparrow', 'fifteen centimetres from beak to tail'],
    features: ['a bright patch of colour on the throat', 'white bars across dark wings', 'a short, heavy beak suited to cracking seeds'],
    habits: [
      'It sings mainly at dawn, and each male uses a repertoire of several dozen phrases.',
      'Pairs build cup-shaped nests of grass and spider silk low in dense shrubs.',
      'In autumn large flocks gather on the coast before flying south together.',
    ],
  },
  {
    group: 'frog',
    adult: 'An adult',
    bases: ['tree frog', 'frog', 'toad'],
    sizes: ['barely three centimetres long', 'about the length of a thumb', 'up to nine centimetres long'],
    features: [
      'sticky pads on its toes',
      'skin that shifts from green to brown with the temperature',
      'a loud, rattling call that carries far across the water',
    ],
    habits: [
      'It lays its eggs on leaves overhanging ponds, so that hatching tadpoles drop straight into the water.',
      'During dry months it buries itself in mud and waits for the rains.',
      'It hunts small insects at night, catching them with a quick flick of its tongue.',
    ],
  },
  {
    group: 'beetle',
    adult: 'An adult',
    bases: ['beetle', 'weevil', 'ground beetle'],
    sizes: ['less than a centimetre long', 'around two centimetres long', 'among the larger insects in its range'],
    features: [
      'a metallic shell that shines green or violet depending on the angle',
      'long antennae with feathery tips',
      'ridged wing cases that help it shed rainwater',
    ],
    habits: [
      'Larvae feed on decaying wood, helping to recycle fallen trees.',
      'Adults are active mainly on warm evenings and are drawn to pale flowers.',
      'When disturbed it releases a bitter fluid that deters birds.',
    ],
  },
  {
    group: 'freshwater fish',
    adult: 'An adult',
    bases: ['darter', 'minnow', 'loach', 'catfish'],
    sizes: ['about six centimetres long', 'up to a forearm in length', 'small enough to shelter under pebbles'],
    features: ['a row of dark spots along each flank', 'whisker-like barbels around the mouth', 'fins edged in bright orange during the breeding season'],
    habits: [
      'It feeds on insect larvae picked from the stream bed.',
      'Males guard the eggs, fanning them with their fins to keep them supplied with oxygen.',
      'It prefers cold, fast water and disappears from streams that become silted.',
    ],
  },
  {
    group: 'small mammal',
    adult: 'An adult',
    bases: ['shrew', 'vole', 'dormouse', 'bat'],
    sizes: ['lighter than a coin', 'about the length of a finger, excluding the tail', 'small enough to fit in a teaspoon'],
    features: ['soft fur that is grey above and cream below', 'unusually large ears', 'a long tail that it uses for balance'],
    habits: [
      'It must eat almost constantly and can starve within hours without food.',
      'It spends the winter in a deep sleep inside hollow trees.',
      'It is active almost entirely at night and is rarely seen by people.',
    ],
  },
  {
    group: 'flowering plant',
    adult: 'A mature plant',
    bases: ['orchid', 'bellflower', 'saxifrage', 'gentian'],
    sizes: ['rarely taller than ten centimetres', 'up to half a metre tall', 'low and cushion-forming'],
    features: ['deep blue flowers that open only in full sun', 'leaves covered in fine silvery hairs', 'clusters of small white flowers with a scent of honey'],
    habits: [
      'Its seeds are spread by ants, which carry them away for the oily food attached to each one.',
      'It flowers for only two weeks each year, and is pollinated mainly by bumblebees.',
      'It grows in cracks in bare rock, where few competitors can survive.',
    ],
  },
];
const HABITATS = [
  'in the cloud forests of an imaginary mountain range',
  'along the shores of a fictional inland sea',
  'in the peat bogs of an island that does not exist',
  'on the high limestone plateaus of an invented country',
  'in the shaded river valleys of an imagined lowland',
  'in the dry scrub of an imagined southern coast',
];
const OUTLOOKS = [
  'Its numbers have fallen as wetlands were drained, and it is now protected by law.',
  'It remains common, and volunteers count it each year as an indicator of habitat health.',
  'Little is known about its life span, and field studies are still under way.',
  'It was first described by a schoolteacher who noticed it on a walk, and it now appears on local stamps.',
  'Changes in rainfall are shifting its range uphill, and conservation groups monitor the highest populations.',
];

function species(rng: Rng): [string, string] {
  const kind = pick(rng, KINDS);
  const adj = pick(rng, ADJECTIVES);
  const name = `${adj} ${pick(rng, kind.bases)}`;
  const habitat = pick(rng, HABITATS);
  const live = kind.group === 'flowering plant' ? 'grow' : 'live';
  const lives = `${live}s`;
  const intro = pick(rng, [
    () => `The ${name} is an invented species of ${kind.group} said to ${live} ${habitat}.`,
    () => `Found only ${habitat}, the ${name} is a fictional ${kind.group}.`,
    () => `The ${name}, a ${kind.group} made up for these examples, ${lives} ${habitat}.`,
  ])();
  const body = pick(rng, [
    () => `It is ${pick(rng, kind.sizes)} and is recognised by ${pick(rng, kind.features)}.`,
    () => `${kind.adult} is ${pick(rng, kind.sizes)}, with ${pick(rng, kind.features)}.`,
    () => `Its most distinctive trait is ${pick(rng, kind.features)}; it is ${pick(rng, kind.sizes)}.`,
  ])();
  const i = rng.int(kind.habits.length);
  const habits = [kind.habits[i], kind.habits[(i + 1 + rng.int(kind.habits.length - 1)) % kind.habits.length]];
  return [name, [intro, body, ...habits, pick(rng, OUTLOOKS)].join(' ')];
}

/**
 * `count` generated paragraphs, none a near-duplicate of `existing` or of each other. The fixed seed and the order
 * of draws make the list identical on every platform.
 */
export function generateParagraphs(existing: readonly string[], count: number): string[] {
  const rng = createRng('similarity-probes/paragraphs/v1');
  const kept: string[] = [];
  const grams = existing.map(fourGrams);
  const seen = new Set(existing);
  const names = new Set<string>();
  let attempts = 0;
  while (kept.length < count && attempts < count * 50) {
    attempts++;
    const which = attempts % 3;
    let name: string;
    let text: string;
    if (which === 0) {
      name = pick(rng, TOWN_HEADS) + pick(rng, TOWN_TAILS);
      text = town(rng, name);
    } else {
      [name, text] = which === 1 ? person(rng) : species(rng);
    }
    if (names.has(name) || !accept(text)) continue;
    names.add(name);
    kept.push(text);
  }
  return kept;

  function accept(text: string): boolean {
    const n = wordCount(text);
    if (n < 35 || n > 90 || seen.has(text)) return false;
    const g = fourGrams(text);
    for (const other of grams) if (fourGramOverlap(g, other) > MAX_GENERATED_OVERLAP) return false;
    grams.push(g);
    seen.add(text);
    return true;
  }
}
