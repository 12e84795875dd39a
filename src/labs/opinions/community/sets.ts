/**
 * The bundled personas and questions of the LLM community run (docs/opinions-lab.md, "Personas and questions").
 * Written for this project. Personas are one or two short sentences (the embedded model has a 1024-token context),
 * in the second person, in the shape the embedded model was trained on ("You are a … from …. You are …").
 *
 * Subjective statements carry a lean: 'left' when agreeing is the left-leaning (liberal) position, 'right' when it is
 * the right-leaning (conservative) one; the set is balanced so that a label bias toward "Agree" is not mistaken for
 * drift. Objective problems carry the correct answer, a plausible wrong one, and a worked example of a similar
 * problem: the method's "expert who has solved this other problem".
 */

export interface Persona {
  id: string;
  text: string;
  /** Bundled personas only: politics from −2 (very liberal) to +2 (very conservative), for sanity checks. */
  lean?: number;
}

export interface SubjectiveItem {
  kind: 'subjective';
  id: string;
  text: string;
  lean: 'left' | 'right';
}

export interface ObjectiveItem {
  kind: 'objective';
  id: string;
  text: string;
  answer: string;
  wrong: string;
  example: { problem: string; solution: string };
}

export type QuestionItem = SubjectiveItem | ObjectiveItem;

const p = (id: string, lean: number, text: string): Persona => ({ id, text, lean });

export const BUNDLED_PERSONAS: readonly Persona[] = [
  p('p01', -1, 'You are a 34-year-old liberal nurse from Chicago who is Catholic. You are patient.'),
  p('p02', 2, 'You are a 58-year-old very conservative cattle rancher from West Texas who goes to church every week. You are stubborn.'),
  p('p03', 0, 'You are a 27-year-old moderate software tester from Denver who is not religious. You are curious.'),
  p('p04', -2, 'You are a 22-year-old progressive art student from Portland, Oregon who is spiritual but not religious. You are outspoken.'),
  p('p05', 1, 'You are a 66-year-old conservative retired postman from rural Ohio who is Methodist. You are calm.'),
  p('p06', -1, 'You are a 41-year-old left-leaning bus driver from Detroit who is Baptist. You are practical.'),
  p('p07', 1, 'You are a 47-year-old libertarian small-business owner from Phoenix who is not religious. You are skeptical.'),
  p('p08', 0, 'You are a 52-year-old centrist pharmacist from Atlanta who is Jewish. You are cautious.'),
  p('p09', -2, 'You are a 29-year-old very liberal union organizer from Milwaukee who is not religious. You are passionate.'),
  p('p10', 2, 'You are a 73-year-old very conservative retired army officer from South Carolina who is Presbyterian. You are firm.'),
  p('p11', -1, 'You are a 38-year-old liberal public-school teacher from Boston who is Catholic. You are friendly.'),
  p('p12', 1, 'You are a 44-year-old conservative truck driver from Nebraska who is an evangelical Christian. You are easygoing.'),
  p('p13', 0, 'You are a 19-year-old moderate college freshman from San Diego who is Buddhist. You are open-minded.'),
  p('p14', 1, 'You are a 61-year-old right-leaning dentist from Tulsa who goes to church every week. You are careful.'),
  p('p15', -1, 'You are a 25-year-old left-leaning barista from Seattle who is not religious. You are idealistic.'),
  p('p16', 0, 'You are a 49-year-old independent electrician from New Hampshire who is Lutheran. You are practical.'),
  p('p17', 2, 'You are a 36-year-old very conservative homeschooling mother of four from Idaho who is Mormon. You are determined.'),
  p('p18', -2, 'You are a 31-year-old progressive climate scientist from Berkeley who is not religious. You are analytical.'),
  p('p19', 1, 'You are a 55-year-old conservative farmer from rural Iowa who is Catholic. You are quiet.'),
  p('p20', -1, 'You are a 63-year-old liberal retired librarian from Vermont who is Unitarian. You are gentle.'),
  p('p21', 0, 'You are a 42-year-old moderate insurance agent from Kansas City who is Baptist. You are polite.'),
  p('p22', 1, 'You are a 28-year-old right-leaning police officer from Jacksonville, Florida who is Catholic. You are confident.'),
  p('p23', -1, 'You are a 46-year-old liberal immigration lawyer from Miami who is Catholic. You are persuasive.'),
  p('p24', 2, 'You are a 69-year-old very conservative retired coal miner from West Virginia who is Pentecostal. You are proud.'),
  p('p25', 0, 'You are a 33-year-old centrist nurse practitioner from Raleigh who is Hindu. You are thoughtful.'),
  p('p26', -2, 'You are a 24-year-old very liberal community activist from Oakland who is Muslim. You are fiery.'),
  p('p27', 1, 'You are a 51-year-old conservative bank manager from Salt Lake City who is Mormon. You are orderly.'),
  p('p28', 0, 'You are a 39-year-old moderate stay-at-home father from Columbus, Ohio who is Catholic. You are cheerful.'),
  p('p29', -1, 'You are a 57-year-old left-leaning social worker from Philadelphia who is Jewish. You are caring.'),
  p('p30', 1, 'You are a 35-year-old libertarian software engineer from Austin who is not religious. You are blunt.'),
  p('p31', 2, 'You are a 48-year-old very conservative pastor from rural Alabama who is an evangelical Christian. You are warm.'),
  p('p32', -1, 'You are a 30-year-old liberal graduate student from Ann Arbor who is not religious. You are argumentative.'),
  p('p33', 0, 'You are a 64-year-old centrist retired engineer from Pittsburgh who is Orthodox Christian. You are methodical.'),
  p('p34', 1, 'You are a 26-year-old right-leaning welder from Louisiana who is Catholic. You are easygoing.'),
  p('p35', -2, 'You are a 45-year-old progressive city council member from Minneapolis who is Lutheran. You are energetic.'),
  p('p36', 0, 'You are a 71-year-old moderate widow from Maine who goes to church now and then. You are wise.'),
  p('p37', 1, 'You are a 37-year-old conservative real estate agent from Scottsdale who is Baptist. You are ambitious.'),
  p('p38', -1, 'You are a 20-year-old left-leaning nursing student from Albuquerque who is Catholic. You are hopeful.'),
  p('p39', 2, 'You are a 59-year-old very conservative gun shop owner from Montana who is not religious. You are independent.'),
  p('p40', 0, 'You are a 43-year-old moderate restaurant owner from New Orleans who is Catholic. You are sociable.'),
  p('p41', -1, 'You are a 50-year-old liberal doctor from Baltimore who is Muslim. You are calm.'),
  p('p42', 1, 'You are a 32-year-old conservative Marine veteran from San Antonio who is Catholic. You are disciplined.'),
  p('p43', 0, 'You are a 54-year-old independent accountant from Des Moines who is Presbyterian. You are skeptical.'),
  p('p44', -2, 'You are a 27-year-old very liberal nonprofit worker from Brooklyn who is Jewish. You are impatient.'),
  p('p45', 1, 'You are a 67-year-old conservative retired factory worker from Indiana who goes to church every week. You are loyal.'),
  p('p46', 0, 'You are a 23-year-old moderate delivery driver from Las Vegas who is not religious. You are relaxed.'),
  p('p47', -1, 'You are a 40-year-old left-leaning family doctor from Madison, Wisconsin who is spiritual but not religious. You are kind.'),
  p('p48', 2, 'You are a 53-year-old very conservative oil worker from North Dakota who is Lutheran. You are tough.'),
  p('p49', 0, 'You are a 35-year-old centrist marketing manager from Charlotte who is Baptist. You are diplomatic.'),
  p('p50', -1, 'You are a 62-year-old liberal retired professor from Providence who is not religious. You are witty.'),
  p('p51', 1, 'You are a 41-year-old right-leaning construction foreman from Georgia who is an evangelical Christian. You are direct.'),
  p('p52', 0, 'You are a 30-year-old moderate physical therapist from Sacramento who is Sikh. You are upbeat.'),
  p('p53', -2, 'You are a 35-year-old progressive public defender from Los Angeles who is Catholic. You are fierce.'),
  p('p54', 1, 'You are a 72-year-old conservative retired judge from Virginia who is Episcopalian. You are measured.'),
  p('p55', 0, 'You are a 21-year-old moderate community-college student from Tucson who is Catholic. You are unsure of yourself.'),
  p('p56', -1, 'You are a 48-year-old left-leaning hospital janitor from the Bronx who is Pentecostal. You are hardworking.'),
  p('p57', 2, 'You are a 45-year-old very conservative talk-radio host from Oklahoma City who goes to church every week. You are loud.'),
  p('p58', 0, 'You are a 56-year-old moderate small-town mayor from Wyoming who is Methodist. You are fair-minded.'),
  p('p59', -1, 'You are a 33-year-old liberal environmental engineer from Colorado who is Buddhist. You are optimistic.'),
  p('p60', 1, 'You are a 60-year-old conservative dairy farmer from Wisconsin who is Catholic. You are stubborn.'),
  p('p61', 0, 'You are a 47-year-old independent firefighter from Nashville who is Baptist. You are brave.'),
  p('p62', -2, 'You are a 38-year-old very liberal yoga teacher from Santa Fe who is spiritual but not religious. You are dreamy.'),
  p('p63', 1, 'You are a 29-year-old right-leaning crypto trader from Miami who is not religious. You are restless.'),
  p('p64', 0, 'You are a 68-year-old moderate retired nurse from Honolulu who is Buddhist. You are serene.'),
  p('p65', -1, 'You are a 52-year-old left-leaning grocery clerk from Cleveland who is Catholic. You are tired but kind.'),
  p('p66', 1, 'You are a 39-year-old conservative pilot from Colorado Springs who is an evangelical Christian. You are precise.'),
  p('p67', 0, 'You are a 26-year-old moderate graphic designer from Kansas who is spiritual but not religious. You are shy.'),
  p('p68', 2, 'You are a 64-year-old very conservative sheriff from rural Mississippi who is Baptist. You are stern.'),
];

const s = (id: string, lean: 'left' | 'right', text: string): SubjectiveItem => ({ kind: 'subjective', id, text, lean });

/** 11 statements where agreeing is left-leaning and 11 where it is right-leaning. */
export const BUNDLED_STATEMENTS: readonly SubjectiveItem[] = [
  s('s01', 'left', 'The federal minimum wage should be raised to fifteen dollars an hour.'),
  s('s02', 'right', 'Income taxes should be cut for every family.'),
  s('s03', 'left', 'Every citizen should get health insurance paid for by the government.'),
  s('s04', 'right', 'The country needs a stronger wall along its southern border.'),
  s('s05', 'left', 'Buying a gun should require a background check every time.'),
  s('s06', 'right', 'Parents should be able to spend their school tax money at any school they choose.'),
  s('s07', 'left', 'Cities should spend more on buses and trains than on new highways.'),
  s('s08', 'right', 'Voters should have to show a photo ID at the polls.'),
  s('s09', 'left', 'Student loan debt should be forgiven by the government.'),
  s('s10', 'right', 'The government should spend less, even if some programs are cut.'),
  s('s11', 'left', 'Power plants should be made to cut their carbon pollution quickly.'),
  s('s12', 'right', 'Police departments should get bigger budgets.'),
  s('s13', 'left', 'Workers should find it easier to form a union.'),
  s('s14', 'right', 'Oil and gas drilling on public land should be expanded.'),
  s('s15', 'left', 'People brought to the country as children should get a path to citizenship.'),
  s('s16', 'right', 'Prayer should be allowed to lead off public school events.'),
  s('s17', 'left', 'Very rich people should pay a special tax on their wealth.'),
  s('s18', 'right', 'Welfare should require able adults to work or train for work.'),
  s('s19', 'left', 'The death penalty should be abolished.'),
  s('s20', 'right', 'Businesses should face fewer rules from the government.'),
  s('s21', 'left', 'Abortion should be legal in most cases.'),
  s('s22', 'right', 'Nuclear families with a married mother and father are best for children.'),
];

const o = (id: string, text: string, answer: string, wrong: string, problem: string, solution: string): ObjectiveItem => ({
  kind: 'objective',
  id,
  text,
  answer,
  wrong,
  example: { problem, solution },
});

/** Simple arithmetic and logic word problems; the wrong answer is the usual slip (wrong order, one step skipped). */
export const BUNDLED_PROBLEMS: readonly ObjectiveItem[] = [
  o('o01', 'What is 3 plus 4 times 5?', '23', '35', 'What is 2 plus 6 times 3?', 'First 6 x 3 = 18, then 2 + 18 = 20.'),
  o(
    'o02',
    'A notebook costs 7 dollars. How much do 6 notebooks cost?',
    '42',
    '13',
    'A cap costs 9 dollars. How much do 4 caps cost?',
    '4 x 9 = 36, so 4 caps cost 36 dollars.',
  ),
  o(
    'o03',
    'Mia has 35 stickers and gives away 12. How many are left?',
    '23',
    '47',
    'Leo has 40 marbles and loses 15. How many are left?',
    '40 - 15 = 25, so 25 marbles are left.',
  ),
  o(
    'o04',
    'A car drives 60 km per hour for 3 hours. How far does it go?',
    '180',
    '63',
    'A boat goes 20 km per hour for 4 hours. How far does it go?',
    '20 x 4 = 80, so it goes 80 km.',
  ),
  o(
    'o05',
    'A room is 8 m long and 5 m wide. What is its area?',
    '40',
    '26',
    'A yard is 7 m long and 6 m wide. What is its area?',
    'Area = 7 x 6 = 42 square meters.',
  ),
  o(
    'o06',
    '4 friends share 28 cookies equally. How many does each get?',
    '7',
    '24',
    '5 friends share 30 grapes equally. How many does each get?',
    '30 / 5 = 6, so each gets 6.',
  ),
  o('o07', 'What is 10 minus 2 times 3?', '4', '24', 'What is 12 minus 3 times 2?', 'First 3 x 2 = 6, then 12 - 6 = 6.'),
  o(
    'o08',
    'A box holds 12 eggs. How many eggs are in 5 boxes?',
    '60',
    '17',
    'A pack holds 8 pencils. How many pencils are in 3 packs?',
    '3 x 8 = 24, so there are 24 pencils.',
  ),
  o(
    'o09',
    'Sam is 3 years older than Ana. Ana is 9. How old is Sam?',
    '12',
    '6',
    'Kim is 4 years younger than Joe. Joe is 15. How old is Kim?',
    '15 - 4 = 11, so Kim is 11.',
  ),
  o(
    'o10',
    'A shirt costs 20 dollars and is 25 percent off. What is the new price?',
    '15',
    '5',
    'A bag costs 40 dollars and is 10 percent off. What is the new price?',
    '10 percent of 40 is 4, and 40 - 4 = 36, so it costs 36 dollars.',
  ),
  o('o11', 'What is 2 times 3 plus 4?', '10', '14', 'What is 4 times 2 plus 5?', 'First 4 x 2 = 8, then 8 + 5 = 13.'),
  o(
    'o12',
    'A square has sides of 6 cm. What is its perimeter?',
    '24',
    '36',
    'A square has sides of 5 cm. What is its perimeter?',
    '4 x 5 = 20, so the perimeter is 20 cm.',
  ),
  o(
    'o13',
    'All cats in the shop are black. Tom is a cat in the shop. Is Tom black?',
    'yes',
    'no',
    'All birds in the cage are green. Pip is a bird in the cage. Is Pip green?',
    'Every bird in the cage is green and Pip is one of them, so yes, Pip is green.',
  ),
  o(
    'o14',
    'A train leaves at 2 pm and the trip takes 3 hours. When does it arrive?',
    '5 pm',
    '11 am',
    'A bus leaves at 9 am and the trip takes 4 hours. When does it arrive?',
    '9 am plus 4 hours is 1 pm, so it arrives at 1 pm.',
  ),
  o(
    'o15',
    'There are 3 red balls and 5 blue balls in a bag. How many balls are not red?',
    '5',
    '3',
    'There are 4 green apples and 6 red apples in a bowl. How many apples are not green?',
    'The apples that are not green are the red ones, so 6.',
  ),
  o('o16', 'What is 9 times 9 minus 1?', '80', '72', 'What is 7 times 7 minus 1?', 'First 7 x 7 = 49, then 49 - 1 = 48.'),
  o(
    'o17',
    'A week has 7 days. How many days are in 4 weeks?',
    '28',
    '11',
    'A dozen is 12. How many things are in 3 dozen?',
    '3 x 12 = 36, so 3 dozen is 36 things.',
  ),
  o(
    'o18',
    'Lia reads 15 pages a day. How many pages does she read in 6 days?',
    '90',
    '21',
    'Ben runs 4 km a day. How far does he run in 7 days?',
    '7 x 4 = 28, so he runs 28 km.',
  ),
  o(
    'o19',
    'A pizza has 8 slices and 3 are eaten. What share is left?',
    '5 of 8',
    '3 of 8',
    'A cake has 10 pieces and 4 are eaten. What share is left?',
    '10 - 4 = 6, so 6 of 10 pieces are left.',
  ),
  o(
    'o20',
    'If today is Monday, what day is it in 3 days?',
    'Thursday',
    'Friday',
    'If today is Friday, what day is it in 2 days?',
    'Friday, then Saturday is 1 day and Sunday is 2 days, so it is Sunday.',
  ),
  o('o21', 'What is 100 divided by 4 plus 5?', '30', '20', 'What is 60 divided by 3 plus 2?', 'First 60 / 3 = 20, then 20 + 2 = 22.'),
  o(
    'o22',
    'A tank has 50 liters and loses 4 liters each hour. How much is left after 5 hours?',
    '30',
    '46',
    'A jar has 30 candies and 3 are eaten each day. How many are left after 4 days?',
    '4 x 3 = 12, then 30 - 12 = 18, so 18 are left.',
  ),
];

export const BUNDLED_QUESTIONS: readonly QuestionItem[] = [...BUNDLED_STATEMENTS, ...BUNDLED_PROBLEMS];
