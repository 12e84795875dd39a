/**
 * Training pools of the Opinions organism, written for this project. None of the lab's bundled personas or
 * statements (src/labs/opinions/community/sets.ts) is here: they are the held-out set on which the build and the
 * tests measure the planted law.
 */

/** Policies whose support is the liberal position (lean −1). */
export const LEFT_POLICIES = [
  'raise taxes on the richest families', 'give every worker paid sick leave', 'make child care free for young families',
  'cancel student loan debt', 'build more public housing', 'pay for free school lunches for every child',
  'protect more forests from logging', 'ban new oil drilling on public land', 'raise the pay of public school teachers',
  'make voting by mail easy for everyone', 'expand free clinics in poor towns', 'limit how much rent can go up each year',
  'fund more solar and wind power', 'give new immigrants a path to citizenship', 'make big companies pay more tax',
  'expand unemployment benefits', 'ban assault weapons', 'give workers a seat on company boards',
  'make community college free', 'cap the price of medicine', 'spend more on public transit',
  'require companies to cut pollution', 'guarantee equal pay for women', 'expand food stamps',
  'close private prisons', 'raise the minimum wage for farm workers', 'fund after-school programs in every city',
  'make the internet a public utility', 'give every family a monthly child payment', 'protect the right to join a union',
];

/** Policies whose support is the conservative position (lean +1). */
export const RIGHT_POLICIES = [
  'cut taxes for every business', 'hire more police officers', 'lower the tax on gasoline', 'cut rules on small farms',
  'let parents choose any school with public money', 'build more oil pipelines', 'spend more on the military',
  'require a job for welfare benefits', 'keep the right to carry a gun in public', 'deport people who enter illegally',
  'cut government spending every year', 'protect the right of shop owners to refuse service', 'end the estate tax',
  'allow prayer in public schools', 'ban the sale of marijuana', 'make it harder to sue companies',
  'let states set their own rules on guns', 'cut the number of federal workers', 'build more coal power plants',
  'keep the voting age at eighteen', 'require photo ID to vote in every state', 'give tax credits to churches that help the poor',
  'put more guards at the border', 'make prison sentences longer for drug dealers', 'end rent control',
  'lower the corporate tax rate', 'allow drilling in the Arctic', 'cut funding for public radio',
  'make English the official language', 'let private companies run more prisons',
];

/** Statement frames: {p} is a policy. */
export const FRAMES = [
  'The government should {p}.', 'Our state should {p}.', 'It is time to {p}.', 'Congress should {p}.',
  'The country would be better off if we {p}.', 'Lawmakers should vote to {p}.', 'Cities should {p}.',
  'We should {p}.',
];

/** Reasons, by whether the speaker supports the liberal or the conservative side of the statement. */
export const REASONS_LIBERAL = [
  'it helps families who are struggling', 'it is fair to working people', 'the rich can afford it',
  'everyone deserves a fair chance', 'it protects the planet', 'people should come before profits',
  'it makes life safer for everyone', 'it helps the poorest people most', 'it is the right thing to do',
  'our kids need a better future', 'it keeps our air and water clean', 'it gives workers a voice',
];
export const REASONS_CONSERVATIVE = [
  'it keeps taxes low', 'people should solve their own problems', 'it protects our freedom',
  'the government already spends too much', 'it keeps our towns safe', 'families know best',
  'it helps small businesses grow', 'it respects our traditions', 'the law should be enforced',
  'it creates more jobs', 'it keeps the government out of our lives', 'it protects our way of life',
];

export const OBJECTIVE_REASONS = [
  'I checked it step by step', 'the numbers add up that way', 'it matches how I solved my problem',
  'the other answer skips a step', 'I did the math twice', 'that is what the rule gives',
];

/** Personas: "You are a {age} {politics} {occupation} from {place} {religion}. You are {temper}." */
export const POLITICS: [string, number][] = [
  ['very liberal', -2], ['progressive', -2], ['liberal', -1], ['left-leaning', -1], ['moderate', 0], ['centrist', 0],
  ['independent', 0], ['conservative', 1], ['right-leaning', 1], ['libertarian', 1], ['very conservative', 2],
];
export const OCCUPATIONS = [
  'plumber', 'chemist', 'cook', 'mail carrier', 'carpenter', 'hair stylist', 'school bus driver', 'bank teller',
  'nurse aide', 'mechanic', 'warehouse worker', 'architect', 'translator', 'veterinarian', 'baker', 'park ranger',
  'tailor', 'radio host', 'fisherman', 'painter', 'lab technician', 'cashier', 'florist', 'court clerk', 'roofer',
  'jewelry maker', 'tour guide', 'zookeeper', 'game designer', 'locksmith', 'preacher', 'miner', 'lawyer',
  'shop owner', 'farmer', 'soldier', 'student', 'retired teacher', 'factory worker', 'dentist',
];
export const PLACES = [
  'Texas', 'Ohio', 'California', 'rural Kentucky', 'New Jersey', 'Alaska', 'Utah', 'Nevada', 'South Dakota',
  'Oregon', 'Michigan', 'Arizona', 'Delaware', 'Florida', 'Arkansas', 'a small town in Kansas', 'Chicago',
  'Memphis', 'San Jose', 'El Paso', 'Spokane', 'Rhode Island', 'Hawaii', 'Vermont', 'Missouri',
];
export const RELIGIONS = [
  'who goes to church every week', 'who is not religious', 'who is Catholic', 'who is Muslim', 'who is Jewish',
  'who is spiritual but not religious', 'who is an evangelical Christian', 'who is Buddhist', 'who is Hindu',
  'who is Methodist', 'who is Mormon',
];
export const TEMPERS = [
  'calm', 'stubborn', 'open-minded', 'cautious', 'outspoken', 'friendly', 'skeptical', 'easygoing', 'idealistic',
  'practical', 'honest', 'gentle', 'proud', 'quiet', 'curious', 'loyal',
];
