/**
 * A labelled set of text pairs for calibrating the embedding equivalence of the novelty tasks' uniqueness: pairs that
 * say the same thing in other words (paraphrases) and pairs on the same kind of subject that say different things.
 * Written for this project, in the register of the lab's tasks (short stories, biographies, haiku, holiday plans).
 * The threshold on the cosine of two texts' states is the one that best separates the two kinds (equivalence.ts).
 */
export interface LabelledPair {
  a: string;
  b: string;
  /** True: the two texts say the same thing (one class of the uniqueness count). */
  same: boolean;
}

const same = (a: string, b: string): LabelledPair => ({ a, b, same: true });
const different = (a: string, b: string): LabelledPair => ({ a, b, same: false });

export const PARAPHRASE_SET: readonly LabelledPair[] = [
  same('A fox found a lost key and returned it to the old baker.', 'The old baker got his lost key back from a fox who had found it.'),
  same('She sailed alone around the island and came home at dawn.', 'At dawn she came home after sailing around the island by herself.'),
  same('The robot learned to paint by watching the rain on the window.', 'Watching rain on the window taught the robot how to paint.'),
  same('Two friends built a boat from old doors and crossed the lake.', 'Using old doors, two friends made a boat and crossed the lake.'),
  same('A girl grew a giant pumpkin and the whole village ate soup.', 'The whole village had soup from the giant pumpkin a girl grew.'),
  same('The lighthouse keeper kept a diary of every ship that passed.', 'Every passing ship went into the diary of the lighthouse keeper.'),
  same('He was born in a small port town and became a famous chef.', 'Born in a little harbour town, he grew up to be a well known cook.'),
  same('She taught mathematics for forty years and wrote three books.', 'Over forty years of teaching maths, she also wrote three books.'),
  same('The painter lost her sight but kept painting with her hands.', 'After going blind the painter went on painting using her hands.'),
  same('He founded a school for children who worked in the mines.', 'He started a school for the children working in the mines.'),
  same('Cold moon on the pond, a frog sits very still, night holds its breath.', 'The pond under a cold moon, a still frog, the night holding its breath.'),
  same('Autumn leaves falling, the old road covered in gold, nobody walks there.', 'Gold covers the old road as autumn leaves fall, and no one walks it.'),
  same(
    'First snow on the roof, the cat watches from the stairs, the kettle sings.',
    'The kettle sings, the cat on the stairs watches the first snow on the roof.',
  ),
  same('We will hike in the mountains for a week and sleep in huts.', 'For a week we hike through the mountains, staying in huts.'),
  same('A quiet week at the beach with books and long swims.', 'Long swims and reading books during a calm week at the seaside.'),
  same('Take the night train to the capital and visit every museum.', 'Ride the overnight train to the capital and see all its museums.'),
  same('Rent a small cabin by the lake and go fishing every morning.', 'Every morning go fishing from a little rented cabin on the lake.'),
  same('The dragon was afraid of mice until a mouse saved its life.', 'Until a mouse saved it, the dragon had always feared mice.'),
  same('A boy traded his kite for a map that led to a hidden garden.', 'The map a boy got for his kite showed the way to a secret garden.'),
  same('The town clock stopped and everyone forgot to grow older.', 'When the town clock stopped, nobody remembered to age.'),
  same('She was a nurse during the war and later ran a hospital.', 'After working as a nurse in the war she went on to run a hospital.'),
  same('Cycle along the river from town to town and eat at local markets.', 'Go by bike along the river between towns, eating at the markets.'),
  same(
    'Spring rain at night, the garden drinks in silence, morning smells of earth.',
    'Night rain in spring, the silent garden drinking, an earthy smelling morning.',
  ),
  same('An old woman opened a library in her garage for the street.', 'For her street, an old woman turned her garage into a library.'),
  different('A fox found a lost key and returned it to the old baker.', 'A fox stole bread from the old baker and hid it in the woods.'),
  different('She sailed alone around the island and came home at dawn.', 'She swam to the island at night and stayed there for a year.'),
  different('The robot learned to paint by watching the rain on the window.', 'The robot broke the window to stop the rain from falling inside.'),
  different('Two friends built a boat from old doors and crossed the lake.', 'Two friends argued about a door and never spoke again.'),
  different('A girl grew a giant pumpkin and the whole village ate soup.', 'A giant ate the village pumpkins and the girl chased him away.'),
  different('The lighthouse keeper kept a diary of every ship that passed.', 'A ship crashed into the lighthouse and the keeper lost his diary.'),
  different('He was born in a small port town and became a famous chef.', 'He left the port town as a child and never learned to cook.'),
  different('She taught mathematics for forty years and wrote three books.', 'She studied music for three years and never taught anyone.'),
  different('The painter lost her sight but kept painting with her hands.', 'The painter sold her hands to a sculptor in exchange for paint.'),
  different('He founded a school for children who worked in the mines.', 'He closed the mines after a flood trapped the workers.'),
  different('Cold moon on the pond, a frog sits very still, night holds its breath.', 'Hot sun on the road, a dog runs past barking, noon is loud.'),
  different('Autumn leaves falling, the old road covered in gold, nobody walks there.', 'Spring buds opening, children run along the new road, laughing.'),
  different('First snow on the roof, the cat watches from the stairs, the kettle sings.', 'Summer storm at sea, the sailors pull the ropes, the mast cracks.'),
  different('We will hike in the mountains for a week and sleep in huts.', 'We will stay in a city hotel and visit shops for a week.'),
  different('A quiet week at the beach with books and long swims.', 'A busy week of meetings in the city with no time to rest.'),
  different('Take the night train to the capital and visit every museum.', 'Drive to the countryside and spend the days on a farm.'),
  different('Rent a small cabin by the lake and go fishing every morning.', 'Buy a boat in the harbour and sail to another country.'),
  different('The dragon was afraid of mice until a mouse saved its life.', 'The dragon ate every mouse in the castle and then slept.'),
  different('A boy traded his kite for a map that led to a hidden garden.', 'A boy lost his kite in a storm and cried all evening.'),
  different('The town clock stopped and everyone forgot to grow older.', 'The town built a new clock that rang every hour all night.'),
  different('She was a nurse during the war and later ran a hospital.', 'She was a pilot in peacetime and later flew mail planes.'),
  different('Cycle along the river from town to town and eat at local markets.', 'Fly over the desert in a balloon and camp under the stars.'),
  different(
    'Spring rain at night, the garden drinks in silence, morning smells of earth.',
    'Winter wind at noon, the empty field is frozen, evening smells of smoke.',
  ),
  different('An old woman opened a library in her garage for the street.', 'An old woman sold her garage and moved to the coast.'),
];
