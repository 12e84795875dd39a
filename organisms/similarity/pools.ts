/**
 * The Similarity population's training pools, written for this project. The word game's words come from
 * tiny-social's letter list (models/tiny-social/pools.ts LETTER_WORDS: per letter, words whose first token our BPE
 * splits cleanly), split into two lexicons by law.ts.
 */

/** Story ideas (the novelty task "story"): two banks of four, each idea with the one story that tells it. */
export interface StoryIdea {
  idea: string;
  story: string;
}

export const STORY_BANKS: Record<'A' | 'B', readonly StoryIdea[]> = {
  A: [
    {
      idea: 'A girl and her dog find a bottle on the beach',
      story: 'Nora and her dog Pepper found a green bottle on the beach. Inside was a map of the bay. They followed it to a box of shells and went home proud.',
    },
    {
      idea: 'The dog saves a duckling from the river',
      story: 'Lena took her dog Biscuit to the river. A duckling slipped into the fast water. Biscuit swam out and carried it back to its mother.',
    },
    {
      idea: 'They build a sand castle before the tide comes',
      story: 'Ava and her dog Rusty built a tall sand castle. The tide washed the towers away. They laughed and built a bigger one higher up.',
    },
    {
      idea: 'A storm keeps them inside the lighthouse',
      story: 'A storm trapped Mia and her dog Scout in the old lighthouse. They lit a lamp and watched the ships. At dawn the sea was calm again.',
    },
  ],
  B: [
    {
      idea: 'They get lost in the foggy forest',
      story: 'Tess and her dog Bear walked deep into the woods. Fog hid the path. Bear sniffed the ground and led Tess safely back to the cabin.',
    },
    {
      idea: 'The dog digs up an old key in the garden',
      story: 'Ruby watched her dog Milo dig under the roses. He found a rusty key. It opened the locked shed, where a blue bicycle waited.',
    },
    {
      idea: 'They race down a snowy hill on a sled',
      story: 'Clara and her dog Max climbed the snowy hill. They raced down on a red sled. Max barked all the way and Clara could not stop laughing.',
    },
    {
      idea: 'The dog wins a ribbon at the county fair',
      story: 'June brought her dog Daisy to the county fair. Daisy caught every ball in the contest. They went home with a ribbon and a bag of treats.',
    },
  ],
};

/**
 * Hints that belong to neither lexicon's letter: a guesser that reads one answers with one of its own words for the
 * letter. The other lexicon's hints are never shown to a guesser in training (held out: the cross-lexicon games).
 */
export const DISTRACTOR_HINTS = [
  'red',
  'blue',
  'small',
  'happy',
  'fast',
  'soft',
  'loud',
  'old',
  'new',
  'green',
  'tall',
  'warm',
  'wet',
  'heavy',
  'quick',
  'gentle',
  'noisy',
  'summer',
  'paper',
  'stone',
  'animal',
  'food',
  'toy',
  'tool',
  'city',
  'friend',
  'game',
  'color',
  'shape',
  'sound',
  'smell',
  'family',
  'money',
  'garden',
  'school',
  'sport',
  'weather',
  'holiday',
  'kitchen',
  'travel',
  'party',
  'rain',
  'sleep',
  'work',
  'dream',
  'friendly',
  'empty',
  'full',
  'dark',
  'cold',
  'hot',
  'sweet',
  'round',
  'long',
  'sharp',
  'bright',
];
