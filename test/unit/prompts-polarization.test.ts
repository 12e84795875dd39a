import { describe, expect, it } from 'vitest';
import {
  CONFIRMATION_BIAS_TRAIT,
  SELECTIVE_EXPOSURE_TRAIT,
  buildConsistencyCheckPrompt,
  buildInitialPostPrompt,
  buildPersuadePrompt,
  buildRewirePrompt,
  buildStanceUpdatePrompt,
  DEFAULT_OPENNESS,
  parseMessage,
  parsePersuade,
  parseStanceUpdate,
  parseYesNo,
  toStance,
} from '../../src/core/prompts';
import type { PolarizationTopic } from '../../src/core/prompts';

const topic: PolarizationTopic = { name: 'gun control', statement: 'Stricter gun control laws' };
const self = { stance: 1 as const, reasons: 'Fewer guns, fewer deaths.' };
const other = { stance: -2 as const, reasons: 'Self defense is a right.' };
const fifty =
  'I understand your view, but I support this. First, fewer guns would mean fewer deaths. Also, checks keep guns from dangerous people. And other countries are safer. I hope you will think about it.';

describe('polarization prompts', () => {
  it('stance update shows the labelled scale, own stance and capped messages', () => {
    const c = buildStanceUpdatePrompt({ topic, self, messages: ['a b c', 'd e f'] })[0].content;
    expect(c).toContain('-2 = strongly against:');
    expect(c).toContain('+2 = strongly in favor:');
    expect(c).toContain('Your stance: +1 (somewhat in favor). Your reasons: Fewer guns, fewer deaths.');
    expect(c).toContain('New messages:\n- a b c\n- d e f');
    expect(c).not.toContain('open to being persuaded');
    expect(c.endsWith('Reply with JSON only: {"stance": <-2 to 2>, "reasons": "<one sentence>"}')).toBe(true);
    const many = Array.from({ length: 9 }, (_, i) => `message ${i} ${'x'.repeat(300)}`);
    const capped = buildStanceUpdatePrompt({ topic, self, messages: many, openToPersuasion: true })[0].content;
    expect(capped).toContain('message 8');
    expect(capped).not.toContain('message 3');
    expect(capped).toContain('You are open to being persuaded by diverse views.');
    expect(buildStanceUpdatePrompt({ topic, self, messages: [], leaderMessages: ['Stay calm.'] })[0].content).toContain(
      '(from a persuasive leader) Stay calm.',
    );
  });
  it('rewire and persuade prompts', () => {
    const r = buildRewirePrompt({ topic, self, other })[0].content;
    expect(r).toContain("This person's stance: -2 (strongly against). Their reasons: Self defense is a right.");
    expect(r).toContain(DEFAULT_OPENNESS);
    expect(r.endsWith('Reply yes or no.')).toBe(true);
    expect(buildRewirePrompt({ topic, self, other, likesDiversity: true })[0].content).toContain('diverse views');
    expect(buildPersuadePrompt({ topic, self, other })[0].content).toContain('about 50 words');
    expect(buildInitialPostPrompt(topic, self)[0].content).toContain('about 50 words');
    expect(buildConsistencyCheckPrompt(topic, self, 'x')[0].content).toContain('Reply yes or no.');
  });

  it('the mechanism traits appear only for the agents that hold them, before the reply instruction', () => {
    const plain = buildStanceUpdatePrompt({ topic, self, messages: ['a'] })[0].content;
    const biased = buildStanceUpdatePrompt({ topic, self, messages: ['a'], confirmationBias: true })[0].content;
    expect(plain).not.toContain(CONFIRMATION_BIAS_TRAIT);
    expect(biased).toContain(CONFIRMATION_BIAS_TRAIT);
    expect(biased.indexOf(CONFIRMATION_BIAS_TRAIT)).toBeLessThan(biased.indexOf('Reply with JSON only'));
    const exposed = buildRewirePrompt({ topic, self, other, selectiveExposure: true })[0].content;
    expect(exposed).toContain(SELECTIVE_EXPOSURE_TRAIT);
    expect(exposed.endsWith('Reply yes or no.')).toBe(true);
    expect(buildRewirePrompt({ topic, self, other })[0].content).not.toContain(SELECTIVE_EXPOSURE_TRAIT);
  });
});

describe('polarization parsers', () => {
  it('parses stance updates (number or label)', () => {
    expect(parseStanceUpdate('{"stance": -1, "reasons": "Rights matter."}', topic)).toEqual({ ok: true, value: { stance: -1, reasons: 'Rights matter.' } });
    expect(parseStanceUpdate('{"stance": "+2", "reasons": "x"}').ok).toBe(true);
    expect(parseStanceUpdate('Sure! {"stance": "somewhat against", "reasons": "x"} hope that helps', topic)).toEqual({
      ok: true,
      value: { stance: -1, reasons: 'x' },
    });
    expect(parseStanceUpdate('{"stance": "0 (neutral)", "reasons": "x"}').ok).toBe(true);
    expect(toStance(1.5)).toBeNull();
  });
  it('rejects bad stance updates', () => {
    for (const x of [
      '{"stance": 3, "reasons": "x"}',
      '{"stance": "very much", "reasons": "x"}',
      '{"stance": 1}',
      '{"stance": 1, "reasons": ""}',
      'stance 1',
      '',
      null,
    ]) {
      expect(parseStanceUpdate(x, topic).ok, String(x)).toBe(false);
    }
  });
  it('parses yes/no', () => {
    expect(parseYesNo('yes')).toEqual({ ok: true, value: true });
    expect(parseYesNo('No.')).toEqual({ ok: true, value: false });
    expect(parseYesNo('**Yes**, I want to')).toEqual({ ok: true, value: true });
    for (const x of ['', 'maybe', 'yesterday', 'Not sure', undefined]) expect(parseYesNo(x).ok, String(x)).toBe(false);
  });
  it('parses persuade decisions and messages', () => {
    expect(parsePersuade('No')).toEqual({ ok: true, value: { send: false, message: '' } });
    const y = parsePersuade(`Yes: ${fifty}`);
    expect(y.ok && y.value.send).toBe(true);
    expect(y.ok && y.value.message).toBe(fifty);
    expect(parsePersuade(`Yes\n${fifty}`).ok).toBe(true);
    expect(parsePersuade('Yes: too short.').ok).toBe(false);
    expect(parsePersuade(`Yes: ${'word '.repeat(150)}`).ok).toBe(false);
    expect(parsePersuade('Perhaps later').ok).toBe(false);
    expect(parseMessage(fifty).ok).toBe(true);
    expect(parseMessage('short').ok).toBe(false);
  });
});
