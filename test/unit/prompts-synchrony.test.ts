import { describe, expect, it } from 'vitest';
import {
  buildDialogueTurnPrompt,
  buildJudgePrompt,
  buildPassiveReaderPrompt,
  detectsLeaving,
  HIDDEN_LINE_INSTRUCTION,
  judgeOverall,
  parseJudge,
  parseUtterance,
  renderChatML,
  splitHiddenLine,
  turnLimits,
  HIDDEN_LINE_TOKENS,
  visiblePartnerBio,
} from '../../src/core/prompts';
import type { Persona, RelationshipLevel, SynchronyEpisode, Utterance } from '../../src/core/prompts';

const mia: Persona = {
  name: 'Mia Chen',
  age: 34,
  occupation: 'nurse',
  pronouns: 'she/her',
  publicInfo: 'Runs a podcast.',
  personality: 'Kind; values honesty.',
  decisionStyle: 'Thinks slowly.',
  secret: 'Cannot swim.',
};
const tom: Persona = {
  name: 'Tom Berg',
  age: 41,
  occupation: 'baker',
  pronouns: 'he/him',
  publicInfo: 'Sings in a choir.',
  personality: 'Proud; values respect.',
  decisionStyle: 'Decides fast.',
  secret: 'Owes money to a friend.',
};
const ep = (relationship: RelationshipLevel): SynchronyEpisode => ({
  scenario: 'Two neighbors discuss a bike.',
  relationship,
  agents: [
    { persona: mia, goal: 'Sell the bike for 80 dollars.' },
    { persona: tom, goal: 'Buy the bike for 60 dollars.' },
  ],
  facts: [{ text: 'Mia needs money today.', visibleTo: 0 }, { text: 'The bike is red.' }],
});
const history: Utterance[] = [
  { speaker: 0, text: 'Hi, want my bike?' },
  { speaker: 1, text: 'Maybe, for 60.' },
];
const content = (m: { content: string }[]): string => m.map((x) => x.content).join('\n');

describe('synchrony dialogue turn prompt', () => {
  it('has instructions, context, history and an open cue', () => {
    const msgs = buildDialogueTurnPrompt(ep(3), 0, history);
    expect(msgs).toHaveLength(1);
    expect(msgs[0].role).toBe('user');
    const c = msgs[0].content;
    expect(c).toMatch(/^Imagine you are Mia Chen\. Act and speak as Mia Chen would and pursue your goal\./);
    expect(c).toContain('Keep each reply to one short line');
    expect(c).toContain('say that you leave');
    expect(c).toContain("Mia Chen's goal: Sell the bike for 80 dollars.");
    expect(c).toContain("Tom Berg's goal: Unknown");
    expect(c).not.toContain('Buy the bike');
    expect(c).toContain('Turn 1: Mia Chen said: Hi, want my bike?\nTurn 2: Tom Berg said: Maybe, for 60.');
    expect(c.trim().endsWith('Turn 3: your turn. Reply as Mia Chen in one line.')).toBe(true);
  });

  it('shows the own secret but never the partner secret', () => {
    for (const lvl of [0, 1, 2, 3, 4, 5] as RelationshipLevel[]) {
      const c = content(buildDialogueTurnPrompt(ep(lvl), 0, history));
      expect(c).toContain('Secret: Cannot swim.');
      expect(c).not.toContain('Owes money');
    }
  });

  it('masks the partner bio by relationship level', () => {
    expect(visiblePartnerBio(tom, 0)).not.toContain('Tom');
    expect(visiblePartnerBio(tom, 1)).toBe('Name: Tom Berg.');
    const l2 = visiblePartnerBio(tom, 2);
    expect(l2).toContain('41');
    expect(l2).toContain('Sings in a choir.');
    expect(l2).not.toContain('Proud');
    for (const lvl of [3, 4, 5] as RelationshipLevel[]) {
      const v = visiblePartnerBio(tom, lvl);
      expect(v).toContain('Proud; values respect.');
      expect(v).toContain('Decides fast.');
      expect(v).not.toContain('Owes money');
    }
    const stranger = content(buildDialogueTurnPrompt(ep(0), 0, []));
    expect(stranger).toContain('The other person: You know nothing about them.');
    expect(stranger).toContain("The other person's goal: Unknown");
    expect(stranger).toContain('(no one has spoken yet)');
  });

  it('shows hidden facts only to their viewer', () => {
    expect(content(buildDialogueTurnPrompt(ep(2), 0, []))).toContain('Mia needs money today.');
    expect(content(buildDialogueTurnPrompt(ep(2), 1, []))).not.toContain('Mia needs money today.');
    expect(content(buildDialogueTurnPrompt(ep(2), 1, []))).toContain('The bike is red.');
  });

  it('passive reader variant drops the act/leave instructions, the goal note and the cue', () => {
    const c = content(buildPassiveReaderPrompt(ep(3), 0, history, 'Sam Ward'));
    expect(c).toMatch(/^Imagine you are Sam Ward, reading an interaction between two other people, Mia Chen and Tom Berg\./);
    expect(c).not.toContain('leave');
    expect(c).not.toContain('Unknown');
    expect(c).not.toContain('your turn');
    expect(c).toContain('Turn 2: Tom Berg said: Maybe, for 60.');
    expect(c.trim().endsWith('Turn 2: Tom Berg said: Maybe, for 60.')).toBe(true);
  });

  it('renders ChatML like the tokenizer template', () => {
    expect(renderChatML([{ role: 'user', content: 'hi' }])).toBe('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n');
    expect(renderChatML([{ role: 'user', content: 'hi' }], false)).toBe('<|im_start|>user\nhi<|im_end|>\n');
  });
});

describe('parseUtterance', () => {
  const names = ['Mia Chen', 'Mia'];
  it('keeps the first line and strips a name prefix', () => {
    expect(parseUtterance('Mia Chen: Hello there.\nTom: hi', names)).toEqual({ ok: true, value: { text: 'Hello there.', leaves: false } });
    expect(parseUtterance('Turn 3: Mia said: Okay.', names)).toEqual({ ok: true, value: { text: 'Okay.', leaves: false } });
    expect(parseUtterance('"Deal, then."', names)).toEqual({ ok: true, value: { text: 'Deal, then.', leaves: false } });
    expect(parseUtterance('  \n\nSure.<|im_end|>junk', names)).toEqual({ ok: true, value: { text: 'Sure.', leaves: false } });
  });
  it('detects leaving', () => {
    for (const s of ['I have to leave now.', 'Thanks. I have to leave now.', 'Great, I will leave now. Goodbye!', 'Left the room.', 'Leaving now, bye!']) {
      const r = parseUtterance(s, names);
      expect(r.ok && r.value.leaves, s).toBe(true);
    }
    for (const s of ['Hello there.', 'Should I leave?', 'Could you let me go ahead of you?', 'I think it is fair. Please think about it.']) {
      expect(detectsLeaving(s), s).toBe(false);
    }
  });
  it('rejects junk without throwing', () => {
    for (const x of ['', '   ', 'Mia Chen:', '!!!', null, undefined, 42, {}, 'x'.repeat(700)]) {
      expect(parseUtterance(x, names).ok).toBe(false);
    }
  });
});

describe('judge', () => {
  const good =
    '{"believability": {"score": 8, "reason": "Natural."}, "relationship": {"score": 2, "reason": "Friendly."}, "knowledge": {"score": 4, "reason": "Some."}, "secret": {"score": 0, "reason": "Kept."}, "social_rules": {"score": -1, "reason": "Pushy."}, "financial_and_material_benefits": {"score": 1, "reason": "Small gain."}, "goal": {"score": 7, "reason": "Mostly."}}';
  it('builds a prompt with both backgrounds, goals and the transcript', () => {
    const c = content(buildJudgePrompt(ep(2), history, 1));
    expect(c).toContain('Rate how Tom Berg did');
    expect(c).toContain('Secret: Cannot swim.');
    expect(c).toContain('Secret: Owes money to a friend.');
    expect(c).toContain("Tom Berg's goal: Buy the bike for 60 dollars.");
    expect(c).toContain('Turn 1: Mia Chen said: Hi, want my bike?');
    expect(c).toContain('secret -10..0');
  });
  it('parses strict JSON with all 7 dimensions', () => {
    const r = parseJudge(good);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.social_rules).toEqual({ score: -1, reason: 'Pushy.' });
      expect(judgeOverall(r.value)).toBeCloseTo(21 / 7);
    }
    expect(parseJudge('```json\n' + good + '\n```').ok).toBe(true);
    expect(parseJudge(good.replace(/\{"score": (-?\d+), "reason": ("[^"]*")\}/g, '[$1, $2]')).ok).toBe(true);
  });
  it('rejects missing keys, out-of-range scores and junk', () => {
    expect(parseJudge(good.replace('"goal"', '"goals"')).ok).toBe(false);
    expect(parseJudge(good.replace('"score": 0, "reason": "Kept."', '"score": 3, "reason": "Kept."')).ok).toBe(false);
    expect(parseJudge(good.replace('"score": 8', '"score": "8"')).ok).toBe(false);
    expect(parseJudge(good.replace('"reason": "Natural."', '"reason": ""')).ok).toBe(false);
    for (const x of ['', 'no json', '{', '{"a": }', '[1,2]', null, 7]) expect(parseJudge(x).ok).toBe(false);
  });
});

describe('the hidden emotion and action line', () => {
  it('is asked for only when the lab decodes emotions', () => {
    expect(content(buildDialogueTurnPrompt(ep(3), 0, []))).not.toMatch(/Feeling/);
    const asked = content(buildDialogueTurnPrompt(ep(3), 0, [], { hiddenLine: true }));
    expect(asked).toContain(HIDDEN_LINE_INSTRUCTION);
    expect(asked).toMatch(/in one line, then the hidden line\.$/);
  });

  it('splits the spoken part from the labels, on its own line or the same one, in any case', () => {
    expect(splitHiddenLine('Can we share the table?\nFeeling: hopeful; Action: ask')).toEqual({
      spoken: 'Can we share the table?',
      labels: { emotion: 'hopeful', action: 'ask' },
    });
    expect(splitHiddenLine('Fine by me. (feeling: Happy, action: AGREE)')).toEqual({ spoken: 'Fine by me.', labels: { emotion: 'happy', action: 'agree' } });
    expect(splitHiddenLine('No.\nAction: refuse\nFeeling: **annoyed**')).toEqual({ spoken: 'No.', labels: { emotion: 'annoyed', action: 'refuse' } });
  });

  it('leaves out a label outside the lists and keeps a reply without the line whole', () => {
    expect(splitHiddenLine('Sure.\nFeeling: ecstatic; Action: dance')).toEqual({ spoken: 'Sure.', labels: {} });
    expect(splitHiddenLine('I am feeling fine, thanks.')).toEqual({ spoken: 'I am feeling fine, thanks.', labels: {} });
    // "feeling:" inside a spoken sentence, before a word that is no feeling, is spoken (a WordNet field's phrase).
    const spoken = 'Had a set-apart feeling: can we agree on that, Christel?';
    expect(splitHiddenLine(`${spoken}\nFeeling: hopeful; Action: propose`)).toEqual({ spoken, labels: { emotion: 'hopeful', action: 'propose' } });
    expect(splitHiddenLine('It is a good feeling: calm and fair.')).toEqual({ spoken: 'It is a good', labels: { emotion: 'calm' } });
    expect(splitHiddenLine('We agree? feeling: weird')).toEqual({ spoken: 'We agree?', labels: {} });
    expect(splitHiddenLine('=HYPERLINK("x")\nFeeling: calm')).toEqual({ spoken: '=HYPERLINK("x")', labels: { emotion: 'calm' } });
  });
});

describe('turnLimits', () => {
  it('stops a plain reply at its line and gives a hidden line room and a later stop', () => {
    expect(turnLimits(16, false)).toEqual({ maxNewTokens: 16, stop: ['\n'] });
    expect(turnLimits(16, true)).toEqual({ maxNewTokens: 16 + HIDDEN_LINE_TOKENS, stop: ['\n\n', '\nTurn '] });
  });
});
