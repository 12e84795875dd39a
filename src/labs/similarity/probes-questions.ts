/**
 * Questions for the Similarity lab's `builtin-questions` probe set, written and generated for this project:
 * - `arithmetic`: GSM8K-like word problems generated from templates with seeded numbers; the integer answer and the
 *   template's operands are stored so the answer can be recomputed;
 * - `math`: short MATH-like questions (algebra, geometry, probability and counting, number theory), hand-written with
 *   answers;
 * - `misconception`: TruthfulQA-like questions about common misconceptions, hand-written with a short correct answer.
 * Only `question` is used as a probe; answers are kept for later use (e.g. scoring).
 */
import { createRng, type Rng } from '../../core/rng';
import { fourGramOverlap, fourGrams } from './probes-generated';

export type QuestionKind = 'arithmetic' | 'math' | 'misconception';

export interface ArithmeticQuestion {
  kind: 'arithmetic';
  /** Template id, e.g. 'notebooks'. */
  template: string;
  question: string;
  answer: number;
  /** The numbers drawn for the template, by name, so tests can recompute `answer`. */
  operands: Readonly<Record<string, number>>;
}

export interface WrittenQuestion {
  kind: 'math' | 'misconception';
  /** For maths: algebra, geometry, probability, number theory. For misconceptions: a broad area. */
  topic: string;
  question: string;
  answer: string;
}

export type ProbeQuestion = ArithmeticQuestion | WrittenQuestion;

// ---------------------------------------------------------------- arithmetic (generated)
interface Person {
  name: string;
  he: string;
  his: string;
}
const PEOPLE: readonly Person[] = [
  ['Amara', 'f'],
  ['Ben', 'm'],
  ['Carla', 'f'],
  ['Dev', 'm'],
  ['Elena', 'f'],
  ['Farid', 'm'],
  ['Grace', 'f'],
  ['Hiro', 'm'],
  ['Isla', 'f'],
  ['Jonas', 'm'],
  ['Keiko', 'f'],
  ['Luis', 'm'],
  ['Maya', 'f'],
  ['Noah', 'm'],
  ['Olga', 'f'],
  ['Pavel', 'm'],
  ['Rosa', 'f'],
  ['Sami', 'm'],
  ['Tara', 'f'],
  ['Umar', 'm'],
  ['Vera', 'f'],
  ['Wes', 'm'],
  ['Yara', 'f'],
  ['Zane', 'm'],
].map(([name, g]) => ({ name, he: g === 'f' ? 'she' : 'he', his: g === 'f' ? 'her' : 'his' }));

const between = (rng: Rng, lo: number, hi: number): number => lo + rng.int(hi - lo + 1);
const pick = <T>(rng: Rng, arr: readonly T[]): T => arr[rng.int(arr.length)];
const an = (w: string): string => `${/^[aeiou]/i.test(w) ? 'an' : 'a'} ${w}`;

interface Template {
  id: string;
  /** Draws operands and returns the question text and the operands. */
  make(rng: Rng): { question: string; operands: Record<string, number> };
  /** The answer from the operands alone (the tests recompute it independently too). */
  solve(o: Record<string, number>): number;
}

/** The arithmetic templates; exported so tests can recompute answers from the stored operands. */
export const ARITHMETIC_TEMPLATES: readonly Template[] = [
  {
    id: 'notebooks',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const o = { count: between(rng, 3, 12), price: between(rng, 2, 9), extra: between(rng, 1, 15) };
      const item = pick(rng, [
        ['notebooks', 'a pen'],
        ['apples', 'a bag'],
        ['postcards', 'a stamp book'],
        ['candles', 'a box of matches'],
      ]);
      const question = pick(rng, [
        `${p.name} buys ${o.count} ${item[0]} at $${o.price} each and ${item[1]} for $${o.extra}. How many dollars does ${p.he} spend in total?`,
        `At the market, ${item[0]} cost $${o.price} each. ${p.name} takes ${o.count} of them and also pays $${o.extra} for ${item[1]}. What is the total cost in dollars?`,
        `${item[1].charAt(0).toUpperCase() + item[1].slice(1)} costs $${o.extra}, and ${item[0]} cost $${o.price} apiece. If ${p.name} buys ${item[1]} and ${o.count} ${item[0]}, how much money does ${p.he} need?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.count * o.price + o.extra,
  },
  {
    id: 'trays',
    make(rng) {
      const o = { trays: between(rng, 3, 9), perTray: between(rng, 6, 16), sold: 0 };
      o.sold = between(rng, 5, o.trays * o.perTray - 1);
      const food = pick(rng, ['muffins', 'cookies', 'bread rolls', 'scones']);
      const who = pick(rng, ['A bakery', 'A school cafeteria', 'A café', 'A market stall']);
      const question = pick(rng, [
        `${who} makes ${o.trays} trays of ${food} with ${o.perTray} on each tray. By noon ${o.sold} of them have been sold. How many are left?`,
        `There are ${o.perTray} ${food} on each of ${o.trays} trays at ${who.toLowerCase()}. Customers buy ${o.sold} of them before lunch. How many ${food} remain unsold?`,
        `${who} bakes ${o.trays} batches of ${food}, ${o.perTray} per batch, and sells ${o.sold} during the morning rush. How many does it still have?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.trays * o.perTray - o.sold,
  },
  {
    id: 'train',
    make(rng) {
      const o = { speed1: 10 * between(rng, 4, 12), hours1: between(rng, 2, 5), speed2: 10 * between(rng, 4, 12), hours2: between(rng, 2, 4) };
      const v = pick(rng, ['A train', 'A bus', 'A truck', 'A ferry']);
      const question = pick(rng, [
        `${v} travels at ${o.speed1} kilometres per hour for ${o.hours1} hours and then at ${o.speed2} kilometres per hour for ${o.hours2} hours. How many kilometres does it travel altogether?`,
        `For the first ${o.hours1} hours of a journey, ${v.toLowerCase()} averages ${o.speed1} km/h; for the next ${o.hours2} hours it averages ${o.speed2} km/h. What total distance, in kilometres, does it cover?`,
        `${v} covers part of a route in ${o.hours1} hours at a steady ${o.speed1} km/h and the rest in ${o.hours2} hours at ${o.speed2} km/h. How long is the whole route in kilometres?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.speed1 * o.hours1 + o.speed2 * o.hours2,
  },
  {
    id: 'savings',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const o = { weekly: between(rng, 5, 40), weeks: between(rng, 4, 20), spent: 0 };
      o.spent = between(rng, 1, o.weekly * o.weeks - 1);
      const thing = pick(rng, ['a bicycle', 'a guitar', 'a pair of boots', 'a tent', 'a concert ticket']);
      const question = pick(rng, [
        `${p.name} saves $${o.weekly} every week. After ${o.weeks} weeks ${p.he} spends $${o.spent} on ${thing}. How many dollars does ${p.he} have left?`,
        `Every week ${p.name} puts $${o.weekly} into a money box. When ${o.weeks} weeks have passed, ${p.he} takes out $${o.spent} to pay for ${thing}. How much remains in the box?`,
        `${p.name} wants ${thing}, which costs $${o.spent}. ${p.he.charAt(0).toUpperCase() + p.he.slice(1)} has been saving $${o.weekly} a week for ${o.weeks} weeks. After buying it, how many dollars will ${p.he} have?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.weekly * o.weeks - o.spent,
  },
  {
    id: 'sharing',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const friends = between(rng, 3, 9);
      const o = { friends, total: friends * between(rng, 4, 25) };
      const things = pick(rng, ['stickers', 'marbles', 'trading cards', 'chestnuts', 'seashells']);
      const question = pick(rng, [
        `${p.name} has ${o.total} ${things} and shares them equally among ${o.friends} friends, keeping none. How many ${things} does each friend get?`,
        `A pile of ${o.total} ${things} is split equally among ${o.friends} friends. How many does each one receive?`,
        `A jar holds ${o.total} ${things}. ${p.name} hands them all out, the same number to each of ${o.friends} classmates. How many ${things} does every classmate get?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.total / o.friends,
  },
  {
    id: 'fence',
    make(rng) {
      const o = { length: between(rng, 6, 40), width: between(rng, 3, 25) };
      const place = pick(rng, ['garden', 'paddock', 'playground', 'vegetable plot']);
      const question = pick(rng, [
        `A rectangular ${place} is ${o.length} metres long and ${o.width} metres wide. How many metres of fencing are needed to go all the way around it?`,
        `The council wants to fence a ${place} shaped like a rectangle, ${o.length} m by ${o.width} m. What length of fence, in metres, must it buy?`,
        `What is the perimeter, in metres, of a rectangular ${place} with sides of ${o.length} m and ${o.width} m?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => 2 * (o.length + o.width),
  },
  {
    id: 'discount',
    make(rng) {
      const o = { price: 20 * between(rng, 2, 15), percent: pick(rng, [10, 20, 25, 50]) };
      const item = pick(rng, ['jacket', 'lamp', 'backpack', 'kettle', 'pair of headphones']);
      const question = pick(rng, [
        `A ${item} normally costs $${o.price}. This week it is ${o.percent}% off. What is the sale price in dollars?`,
        `During a sale, a shop takes ${o.percent}% off a ${item} that usually sells for $${o.price}. How much does the ${item} cost now?`,
        `The regular price of a ${item} is $${o.price}. With a ${o.percent} percent discount coupon, how many dollars does a customer pay?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => (o.price * (100 - o.percent)) / 100,
  },
  {
    id: 'ages',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const o = { age: between(rng, 4, 12), times: between(rng, 3, 5), years: between(rng, 2, 15) };
      const rel = pick(rng, ['mother', 'father', 'aunt', 'uncle']);
      const question = pick(rng, [
        `${p.name} is ${o.age} years old, and ${p.his} ${rel} is ${o.times} times as old. How old will ${p.his} ${rel} be in ${o.years} years?`,
        `${p.name}'s ${rel} is ${o.times} times ${p.name}'s age, and ${p.name} is ${o.age}. What age will the ${rel} be ${o.years} years from now?`,
        `Today ${p.name} turns ${o.age}. ${p.his.charAt(0).toUpperCase() + p.his.slice(1)} ${rel}'s age is exactly ${o.times} times that. How old will the ${rel} be after another ${o.years} years?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.age * o.times + o.years,
  },
  {
    id: 'pages',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const o = { perDay: between(rng, 8, 40), days: between(rng, 3, 9), total: 0 };
      o.total = o.perDay * o.days + between(rng, 10, 200);
      const question = pick(rng, [
        `${p.name} reads ${o.perDay} pages a day of a book that has ${o.total} pages. After ${o.days} days, how many pages does ${p.he} still have to read?`,
        `A novel is ${o.total} pages long. ${p.name} gets through ${o.perDay} pages each evening. How many pages are left after ${o.days} evenings?`,
        `${p.name} has a ${o.total}-page book for school and reads ${o.perDay} pages on each of ${o.days} days. How many pages remain unread?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.total - o.perDay * o.days,
  },
  {
    id: 'legs',
    make(rng) {
      const o = { birds: between(rng, 3, 30), fourLegged: between(rng, 2, 20) };
      const [b, f] = pick(rng, [
        ['chickens', 'cows'],
        ['ducks', 'goats'],
        ['geese', 'sheep'],
        ['turkeys', 'pigs'],
      ]);
      const question = pick(rng, [
        `A farm has ${o.birds} ${b} and ${o.fourLegged} ${f}. How many legs do these animals have in total?`,
        `In a farmyard there are ${o.birds} ${b} and ${o.fourLegged} ${f}. Counting every animal, how many legs are there?`,
        `A farmer counts ${o.fourLegged} ${f} in the field and ${o.birds} ${b} in the yard. What is the total number of legs among them?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => 2 * o.birds + 4 * o.fourLegged,
  },
  {
    id: 'practice',
    make(rng) {
      const p = pick(rng, PEOPLE);
      const o = { weekday: 5 * between(rng, 3, 12), saturday: 5 * between(rng, 4, 18) };
      const what = pick(rng, ['the piano', 'the violin', 'football drills', 'handwriting', 'chess openings']);
      const question = pick(rng, [
        `${p.name} practises ${what} for ${o.weekday} minutes on each weekday, Monday to Friday, and for ${o.saturday} minutes on Saturday. How many minutes does ${p.he} practise that week?`,
        `From Monday to Friday ${p.name} spends ${o.weekday} minutes a day on ${what}, then ${o.saturday} minutes on Saturday and none on Sunday. What is ${p.his} weekly total in minutes?`,
        `On each of the five school days ${p.name} works on ${what} for ${o.weekday} minutes. On Saturday ${p.he} adds a longer session of ${o.saturday} minutes. How many minutes is that for the week?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => 5 * o.weekday + o.saturday,
  },
  {
    id: 'boxes',
    make(rng) {
      const o = { classes: between(rng, 2, 8), perBox: between(rng, 6, 24), boxes: 0 };
      o.boxes = o.classes * between(rng, 2, 6);
      const thing = pick(rng, ['pencils', 'erasers', 'rulers', 'glue sticks']);
      const question = pick(rng, [
        `A school orders ${o.boxes} boxes of ${thing} with ${o.perBox} in each box, and shares them equally among ${o.classes} classes. How many ${thing} does each class receive?`,
        `A delivery of ${o.boxes} boxes arrives at a school, each holding ${o.perBox} ${thing}. They are divided evenly between ${o.classes} classes. How many does each class get?`,
        `A head teacher splits ${o.boxes} packs of ${thing}, with ${o.perBox} in a pack, fairly among ${o.classes} classrooms. How many ${thing} go to each classroom?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => (o.boxes * o.perBox) / o.classes,
  },
  {
    id: 'fuel',
    make(rng) {
      const o = { per100: between(rng, 4, 12), km: 100 * between(rng, 2, 15) };
      const v = pick(rng, ['car', 'van', 'motorbike', 'minibus']);
      const question = pick(rng, [
        `A ${v} uses ${o.per100} litres of fuel for every 100 kilometres. How many litres does it use on a trip of ${o.km} kilometres?`,
        `A ${v} burns ${o.per100} litres per 100 km. How much fuel, in litres, does a ${o.km} km drive take?`,
        `On a ${o.km}-kilometre tour, a ${v} consumes fuel at a rate of ${o.per100} litres per hundred kilometres. How many litres does the tour need?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => (o.per100 * o.km) / 100,
  },
  {
    id: 'tickets',
    make(rng) {
      const o = { adultPrice: between(rng, 8, 30), childPrice: 0, adults: between(rng, 2, 4), children: between(rng, 1, 6) };
      o.childPrice = between(rng, 3, o.adultPrice - 1);
      const venue = pick(rng, ['zoo', 'museum', 'cinema', 'aquarium', 'theme park']);
      const question = pick(rng, [
        `At ${an(venue)}, adult tickets cost $${o.adultPrice} and child tickets cost $${o.childPrice}. A family buys ${o.adults} adult tickets and ${o.children} child tickets. How many dollars do they pay?`,
        `Entry to the ${venue} is $${o.adultPrice} for adults and $${o.childPrice} for children. What does a group of ${o.adults} adults and ${o.children} children pay altogether?`,
        `A group of ${o.adults} adults and ${o.children} children visits ${an(venue)}. An adult ticket is $${o.adultPrice} and a child ticket is $${o.childPrice}. What is the total bill in dollars?`,
      ]);
      return { question, operands: o };
    },
    solve: (o) => o.adults * o.adultPrice + o.children * o.childPrice,
  },
];

/** Instances drawn per template (14 templates × 6 = 84 word problems). */
export const ARITHMETIC_PER_TEMPLATE = 6;

/** Generation-time ceiling on shared word 4-grams between two word problems (the tests check 0.6). */
export const MAX_ARITHMETIC_OVERLAP = 0.55;

/**
 * ARITHMETIC_PER_TEMPLATE problems per template, from a fixed seed. A draw is skipped when its text repeats an earlier
 * one or shares more than MAX_ARITHMETIC_OVERLAP of its word 4-grams with one, so no two read as near-duplicates.
 */
function generateArithmetic(): ArithmeticQuestion[] {
  const rng = createRng('similarity-probes/arithmetic/v1');
  const out: ArithmeticQuestion[] = [];
  const grams: Set<string>[] = [];
  for (const t of ARITHMETIC_TEMPLATES) {
    let made = 0;
    for (let tries = 0; made < ARITHMETIC_PER_TEMPLATE && tries < 5000; tries++) {
      const { question, operands } = t.make(rng);
      const g = fourGrams(question);
      if (grams.some((h) => fourGramOverlap(g, h) > MAX_ARITHMETIC_OVERLAP)) continue;
      grams.push(g);
      out.push({ kind: 'arithmetic', template: t.id, question, answer: t.solve(operands), operands });
      made++;
    }
    if (made < ARITHMETIC_PER_TEMPLATE) throw new Error(`arithmetic template ${t.id}: only ${made} distinct problems`);
  }
  return out;
}

// ---------------------------------------------------------------- maths (hand-written)
const M = (topic: string, question: string, answer: string): WrittenQuestion => ({ kind: 'math', topic, question, answer });

const MATH: readonly WrittenQuestion[] = [
  M('algebra', 'Solve for x: 3x + 7 = 22.', '5'),
  M('algebra', 'Solve for x: 5x - 9 = 2x + 12.', '7'),
  M('algebra', 'If 2(x - 4) = 10, what is the value of x?', '9'),
  M('algebra', 'What are the solutions of the equation x^2 - 5x + 6 = 0?', '2 and 3'),
  M('algebra', 'What is the sum of the roots of x^2 - 7x + 10 = 0?', '7'),
  M('algebra', 'Solve the system of equations x + y = 10 and x - y = 4.', 'x = 7, y = 3'),
  M('algebra', 'If f(x) = 2x^2 - 3x + 1, what is f(3)?', '10'),
  M('algebra', 'Expand and simplify (x + 3)(x - 5).', 'x^2 - 2x - 15'),
  M('algebra', 'Factor the expression x^2 - 49.', '(x - 7)(x + 7)'),
  M('algebra', 'What is the slope of the line passing through the points (1, 2) and (4, 11)?', '3'),
  M('algebra', 'What is the y-intercept of the line 4x + 2y = 8?', '4'),
  M('algebra', 'For which positive value of k does x^2 + kx + 9 = 0 have exactly one real solution?', '6'),
  M('algebra', 'Simplify (2^3 * 2^5) / 2^4 to a single number.', '16'),
  M('algebra', 'What is the logarithm base 2 of 64?', '6'),
  M('algebra', 'If 3^x = 81, what is x?', '4'),
  M('algebra', 'What is the sum of the first 20 positive integers?', '210'),
  M('algebra', 'What is the 10th term of the arithmetic sequence 4, 7, 10, 13, ...?', '31'),
  M('algebra', 'What is the sum of the infinite geometric series 1 + 1/2 + 1/4 + 1/8 + ...?', '2'),
  M('algebra', 'Find all real x such that |2x - 3| = 7.', 'x = 5 or x = -2'),
  M('algebra', 'If a/b = 3/4 and b = 20, what is a?', '15'),
  M('algebra', 'What is the minimum value of the expression x^2 - 6x + 13 over all real x?', '4'),
  M('algebra', 'If f(x) = 3x - 2, what is the value of the inverse function at 10?', '4'),
  M('algebra', 'Simplify the sum of the square root of 50 and the square root of 18.', '8 times the square root of 2'),
  M('algebra', 'How many real solutions does the equation x^2 + 4 = 0 have?', '0'),
  M('algebra', 'The product of two consecutive positive integers is 132. What is the larger of the two?', '12'),
  M('algebra', 'Two numbers add up to 30 and differ by 8. What is the larger number?', '19'),
  M('geometry', 'What is the area of a triangle with base 10 and height 7?', '35'),
  M('geometry', 'A right triangle has legs of length 6 and 8. How long is its hypotenuse?', '10'),
  M('geometry', 'What is the sum of the interior angles of a hexagon, in degrees?', '720'),
  M('geometry', 'What is the area of a circle with radius 5?', '25 pi'),
  M('geometry', 'What is the circumference of a circle whose diameter is 9?', '9 pi'),
  M('geometry', 'A rectangle has a perimeter of 30 and a length of 9. What is its area?', '54'),
  M('geometry', 'What is the volume of a cube with edges of length 4?', '64'),
  M('geometry', 'How many diagonals does a convex octagon have?', '20'),
  M('geometry', 'What is the distance between the points (-1, 2) and (5, 10)?', '10'),
  M('geometry', 'How many degrees does each interior angle of a regular pentagon measure?', '108'),
  M('geometry', 'A cylinder has radius 3 and height 5. What is its volume?', '45 pi'),
  M('geometry', 'What is the area of a square whose diagonal has length 10?', '50'),
  M('geometry', 'Two angles of a triangle measure 47 degrees and 68 degrees. What is the third angle?', '65 degrees'),
  M('geometry', 'What is the midpoint of the segment joining (2, -4) and (8, 6)?', '(5, 1)'),
  M('geometry', 'What is the volume of a sphere of radius 3?', '36 pi'),
  M('geometry', 'What is the area of a trapezoid whose parallel sides are 6 and 10 and whose height is 4?', '32'),
  M('geometry', 'What is the radius of the circle given by x^2 + y^2 - 6x + 8y = 0?', '5'),
  M('geometry', 'What is the area of an equilateral triangle with side length 6?', '9 times the square root of 3'),
  M('geometry', 'A 13-metre ladder leans against a wall with its foot 5 metres from the wall. How high up the wall does it reach?', '12 metres'),
  M('geometry', 'What is the measure of each exterior angle of a regular decagon?', '36 degrees'),
  M('geometry', 'Two similar triangles have corresponding sides in the ratio 2 to 3. What is the ratio of their areas?', '4 to 9'),
  M('probability', 'A fair coin is tossed three times. What is the probability of getting exactly two heads?', '3/8'),
  M('probability', 'Two fair six-sided dice are rolled. What is the probability that their sum is 7?', '1/6'),
  M('probability', 'What is the probability of rolling a number greater than 4 on a fair six-sided die?', '1/3'),
  M('probability', 'A bag holds 3 red and 5 blue marbles. One marble is drawn at random. What is the probability that it is red?', '3/8'),
  M('probability', 'In how many ways can 5 different books be arranged on a shelf?', '120'),
  M('probability', 'In how many ways can a committee of 3 people be chosen from 7 people?', '35'),
  M('probability', 'Two cards are drawn without replacement from a standard 52-card deck. What is the probability that both are aces?', '1/221'),
  M('probability', 'What is the expected value of a single roll of a fair six-sided die?', '3.5'),
  M('probability', 'How many distinct arrangements are there of the letters of the word LEVEL?', '30'),
  M('probability', 'A fair coin is tossed four times. What is the probability of getting at least one head?', '15/16'),
  M('probability', 'How many subsets does a set with 6 elements have, including the empty set?', '64'),
  M('probability', 'A spinner has 8 equal sections numbered 1 to 8. What is the probability that it lands on a prime number?', '1/2'),
  M('probability', 'Two fair dice are rolled. What is the probability that both show the same number?', '1/6'),
  M('probability', 'How many three-digit positive integers are there?', '900'),
  M('probability', 'In how many ways can a president and a vice-president be chosen from a club of 10 members?', '90'),
  M('probability', 'Three fair coins are tossed. What is the probability that all three land the same way up?', '1/4'),
  M('probability', 'A bag has 4 green and 6 yellow balls. Two are drawn without replacement. What is the probability that both are green?', '2/15'),
  M('number theory', 'What is the greatest common divisor of 84 and 126?', '42'),
  M('number theory', 'What is the least common multiple of 12 and 18?', '36'),
  M('number theory', 'What is the remainder when 2^10 is divided by 7?', '2'),
  M('number theory', 'How many positive divisors does 36 have?', '9'),
  M('number theory', 'What is the sum of all prime numbers less than 20?', '77'),
  M('number theory', 'What is the last digit of 3^100?', '1'),
  M('number theory', 'What is the remainder when 17 times 23 is divided by 5?', '1'),
  M('number theory', 'What is the smallest prime number greater than 50?', '53'),
  M('number theory', 'Is 221 a prime number? If not, write it as a product of primes.', 'No: 13 * 17'),
  M('number theory', 'What is the sum of the digits of 2^15?', '26'),
  M('number theory', 'How many positive integers less than 100 are multiples of 7?', '14'),
  M('number theory', 'What is the remainder when 1000 is divided by 13?', '12'),
  M('number theory', 'Write 45 as a product of prime factors.', '3^2 * 5'),
  M('number theory', 'What is the binary representation of the number 25?', '11001'),
  M('number theory', 'What is the decimal value of the binary number 101101?', '45'),
  M('number theory', 'How many zeros are at the end of the decimal expansion of 25 factorial?', '6'),
  M('number theory', 'What is the largest two-digit number that is divisible by both 4 and 6?', '96'),
  M('number theory', 'What is the smallest positive integer greater than 1 that leaves a remainder of 1 when divided by 2, by 3 and by 4?', '13'),
  M('number theory', 'What is the units digit of 7^4?', '1'),
  M('number theory', 'How many prime numbers are there between 30 and 50?', '5'),
  M('number theory', 'What is 5 factorial divided by 3 factorial?', '20'),
  M('number theory', 'If n is an odd integer, what is the remainder when n^2 is divided by 8?', '1'),
];

// ---------------------------------------------------------------- misconceptions (hand-written)
const Q = (topic: string, question: string, answer: string): WrittenQuestion => ({ kind: 'misconception', topic, question, answer });

const MISCONCEPTIONS: readonly WrittenQuestion[] = [
  Q('health', 'What happens if you swallow a piece of chewing gum?', 'It passes through the digestive system within days; it does not stay inside for years.'),
  Q('biology', 'Do humans use only ten percent of their brains?', 'No; imaging shows activity across virtually the whole brain.'),
  Q(
    'space',
    'Can the Great Wall of China be seen with the naked eye from the Moon?',
    'No; it is far too narrow, and it is hard to pick out even from low orbit.',
  ),
  Q('weather', 'Is it true that lightning never strikes the same place twice?', 'No; tall structures are often struck many times a year.'),
  Q('biology', 'What colour is the blood in human veins?', 'Dark red; human blood is never blue.'),
  Q('animals', 'Do goldfish have a memory span of only a few seconds?', 'No; goldfish can remember things for months.'),
  Q('history', 'Was Napoleon Bonaparte unusually short?', 'No; he was around average height for a Frenchman of his time.'),
  Q('animals', 'Does the colour red make bulls angry?', 'No; bulls react to the movement of the cape, not its colour.'),
  Q('health', 'Does shaving make hair grow back thicker or darker?', 'No; shaving does not change the thickness, colour or growth rate of hair.'),
  Q(
    'biology',
    'Is the tongue divided into separate zones for sweet, sour, salty and bitter tastes?',
    'No; all basic tastes can be detected across the tongue.',
  ),
  Q('animals', 'Do ostriches bury their heads in the sand when they are frightened?', 'No; they may lie flat to hide, but they do not bury their heads.'),
  Q('space', 'Are the seasons caused by Earth being closer to the Sun in summer?', "No; they are caused by the tilt of Earth's axis."),
  Q('animals', 'Are bats blind?', 'No; bats can see, and many species also use echolocation.'),
  Q('health', 'Does eating sugar make children hyperactive?', 'Controlled studies have found no such effect.'),
  Q(
    'history',
    'Did Viking warriors wear helmets with horns?',
    'No; there is no evidence of horned battle helmets, an image popularised in the nineteenth century.',
  ),
  Q('health', 'Is it dangerous to wake a sleepwalker?', 'No; they may be confused, but waking them is not harmful.'),
  Q('health', 'Does cracking your knuckles cause arthritis?', 'No; studies have found no link.'),
  Q('biology', 'Do people lose most of their body heat through their heads?', 'No; heat is lost roughly in proportion to exposed skin area.'),
  Q('history', 'Did educated people in the Middle Ages believe that the Earth was flat?', 'No; its roundness was widely known since antiquity.'),
  Q(
    'animals',
    'Do chameleons change colour mainly to blend in with their background?',
    'No; mainly to signal to other chameleons and to regulate temperature.',
  ),
  Q(
    'geography',
    'Is Mount Everest the tallest mountain on Earth when measured from base to summit?',
    'No; Mauna Kea is taller from base to peak, though Everest has the highest summit above sea level.',
  ),
  Q('animals', 'Do camels store water in their humps?', 'No; the humps store fat.'),
  Q(
    'physics',
    'Could a coin dropped from the top of a skyscraper kill a person on the street below?',
    'No; air resistance keeps its speed low enough that it would sting but not kill.',
  ),
  Q(
    'physics',
    'Does the rotation of the Earth decide which way water swirls down a household sink?',
    "No; the effect is far too weak at that scale; the basin shape and the water's motion decide.",
  ),
  Q('science', 'Are most diamonds formed from compressed coal?', 'No; most formed from carbon deep in the mantle, far below any coal.'),
  Q(
    'science',
    'Are old church windows thicker at the bottom because glass flows slowly over centuries?',
    'No; old panes were uneven when made and were often installed thick side down.',
  ),
  Q('health', 'Do you have to wait an hour after eating before swimming?', 'No; there is no evidence that swimming after a meal causes dangerous cramps.'),
  Q('health', 'Do vaccines cause autism?', 'No; large studies have found no link.'),
  Q('health', 'Does reading in dim light permanently damage your eyesight?', 'No; it can cause temporary eye strain but no lasting damage.'),
  Q('biology', 'Do hair and fingernails keep growing after death?', 'No; the skin dries and retracts, which only makes them look longer.'),
  Q('space', 'Is the far side of the Moon permanently dark?', 'No; it receives as much sunlight as the near side.'),
  Q('animals', "Is it true that a duck's quack does not echo?", "No; a duck's quack echoes like any other sound."),
  Q('health', 'Can you catch a cold just from being cold?', 'No; colds are caused by viruses.'),
  Q('health', 'Does drinking alcohol warm your body in cold weather?', 'No; it makes you feel warm but increases heat loss from the skin.'),
  Q('history', 'Is there good evidence that Marie Antoinette said "Let them eat cake"?', 'No; there is no reliable record of her saying it.'),
  Q('history', 'Did Albert Einstein fail mathematics at school?', 'No; he excelled at mathematics.'),
  Q('animals', 'Can porcupines shoot their quills at attackers?', 'No; the quills come loose on contact but cannot be launched.'),
  Q('biology', 'Did humans evolve from chimpanzees?', 'No; humans and chimpanzees share a common ancestor.'),
  Q('animals', 'If an earthworm is cut in half, do both halves grow into new worms?', 'No; at most the front part may survive and regrow a tail.'),
  Q('space', 'What colour is the Sun when seen from space?', 'Essentially white; it looks yellow from the ground because of the atmosphere.'),
  Q('space', 'Is the North Star the brightest star in the night sky?', 'No; Sirius is the brightest; Polaris is only moderately bright.'),
  Q(
    'animals',
    'Will a mother bird abandon a chick that has been touched by a human?',
    'No; most birds have a poor sense of smell and do not reject handled chicks.',
  ),
  Q('space', 'Is it safe to look directly at a partial solar eclipse without eye protection?', 'No; it can cause permanent eye damage.'),
  Q('health', 'Is food that has been on the floor for less than five seconds safe from germs?', 'No; bacteria can transfer almost instantly.'),
  Q('biology', 'Do humans have only five senses?', 'No; there are more, such as balance, temperature, pain and the sense of body position.'),
  Q('science', 'Does heating food in a microwave oven make it radioactive?', 'No; microwaves heat food without making it radioactive.'),
  Q('health', 'Does a full moon cause more crime or more hospital admissions?', 'Studies have found no reliable link.'),
  Q(
    'law',
    'Do you have to wait 24 hours before reporting a missing person to the police?',
    'No; police generally accept reports at once, and early reports help.',
  ),
  Q('history', 'Did Christopher Columbus prove that the Earth was round?', 'No; it had been known since ancient Greek times.'),
  Q('health', 'Can touching a toad give you warts?', 'No; warts are caused by human papillomaviruses.'),
  Q(
    'health',
    'Will eating lots of carrots give you good night vision?',
    'No; carrots help only if you lack vitamin A; the story was spread as wartime propaganda.',
  ),
  Q('space', 'Is Pluto officially classified as a planet?', 'No; it was reclassified as a dwarf planet in 2006.'),
  Q(
    'literature',
    "In Mary Shelley's novel, is Frankenstein the name of the monster?",
    'No; Victor Frankenstein is the scientist, and the creature has no name.',
  ),
  Q('animals', 'Do elephants drink water through their trunks like a straw?', 'No; they draw water into the trunk and then squirt it into their mouths.'),
  Q(
    'history',
    'Did ancient Romans use rooms called vomitoria to vomit during feasts?',
    'No; a vomitorium was a passage that let crowds leave an amphitheatre.',
  ),
  Q('biology', 'Is a tomato a vegetable in the botanical sense?', 'No; botanically it is a fruit.'),
  Q('biology', 'Do bananas grow on trees?', 'No; banana plants are very large herbs, not trees.'),
  Q('animals', 'Do all sharks die if they stop swimming?', 'No; many species can pump water over their gills while resting.'),
  Q('space', 'Is Earth closest to the Sun during the northern summer?', 'No; Earth is closest to the Sun in early January.'),
  Q(
    'space',
    'Is Venus the hottest planet because it is the closest planet to the Sun?',
    'No; Mercury is closer; Venus is hotter because of its thick carbon dioxide atmosphere.',
  ),
  Q('geography', 'Is the Sahara the largest desert in the world?', 'No; Antarctica is larger; the Sahara is the largest hot desert.'),
  Q('health', 'Is brown sugar much healthier than white sugar?', 'No; nutritionally they are almost the same.'),
  Q('animals', 'Does the average person swallow several spiders a year while asleep?', 'No; there is no evidence for this.'),
  Q('weather', 'Is it safe to shelter under a tall tree during a thunderstorm?', 'No; tall trees attract lightning, which makes them dangerous.'),
  Q(
    'physics',
    'Are people in a car safe from lightning because of the rubber tyres?',
    'No; the metal body carries the current around the occupants; the tyres are not why.',
  ),
  Q('physics', 'Is perfectly pure water a good conductor of electricity?', 'No; pure water conducts poorly; dissolved salts make ordinary water conduct.'),
  Q(
    'history',
    'Did Thomas Edison invent the light bulb on his own?',
    'No; many inventors worked on it before him; he developed a practical, long-lasting version.',
  ),
  Q('history', 'Did George Washington wear false teeth made of wood?', 'No; his dentures were made of ivory, metal and human and animal teeth.'),
  Q('health', 'Has monosodium glutamate been shown to cause headaches in most people?', 'No; controlled studies have not found consistent effects.'),
  Q('biology', 'Are all bacteria harmful to humans?', 'No; most are harmless and many are beneficial, such as those in the gut.'),
  Q('health', 'Can antibiotics cure a viral infection such as the common cold?', 'No; antibiotics act on bacteria, not viruses.'),
  Q(
    'health',
    'Must everyone drink exactly eight glasses of water a day on top of all other food and drink?',
    'No; needs vary, and water from food and other drinks counts.',
  ),
  Q('health', "Does a person's blood type determine their personality?", 'No; there is no scientific evidence for this.'),
  Q('animals', 'Do lemmings commit mass suicide by jumping off cliffs?', 'No; the idea was spread by a staged scene in a 1958 documentary.'),
  Q('animals', "Does one calendar year equal exactly seven years of a dog's life?", 'No; dogs age faster early in life, and the rate depends on size.'),
  Q('biology', 'Is the Venus flytrap native to tropical rainforests?', 'No; it grows wild only in wetlands of North and South Carolina.'),
  Q('physics', 'In a vacuum, does a heavy object fall faster than a light one?', 'No; without air resistance they fall with the same acceleration.'),
  Q(
    'space',
    'Is there no gravity aboard the International Space Station?',
    'No; gravity there is about 90 percent of that at the surface; astronauts float because they are in free fall.',
  ),
  Q('physics', 'Does a rainbow contain exactly seven colours?', 'No; the spectrum is continuous, and seven is a convention.'),
  Q('space', 'Does the Moon give off its own light?', 'No; moonlight is reflected sunlight.'),
  Q('animals', 'Do all mosquitoes bite people?', 'No; only females bite, and many species do not feed on humans at all.'),
  Q('history', 'Did medieval knights in armour need cranes to get onto their horses?', 'No; a fit knight in armour could mount unaided.'),
  Q('science', 'Is the centre of the Earth a ball of molten lava?', 'No; the inner core is solid iron and nickel, surrounded by a liquid metal outer core.'),
  Q('space', 'Is a blue moon a moon that looks blue?', 'Usually not; the term normally means an extra full moon in a month or a season.'),
  Q('history', 'Did Galileo invent the telescope?', 'No; the first telescopes were made in the Netherlands in 1608; Galileo improved the design.'),
  Q('biology', 'Are people either left-brained or right-brained in personality?', 'No; brain studies do not support this idea.'),
  Q(
    'biology',
    'Does the Amazon rainforest supply about a fifth of the oxygen we breathe?',
    'No; its net contribution is close to zero, because the forest itself consumes most of the oxygen it makes.',
  ),
];

/** All questions in a fixed order: arithmetic, then maths, then misconceptions. */
export const BUILTIN_QUESTIONS: readonly ProbeQuestion[] = [...generateArithmetic(), ...MATH, ...MISCONCEPTIONS];
