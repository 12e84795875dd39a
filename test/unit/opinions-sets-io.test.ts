import { describe, expect, it } from 'vitest';
import { validateConfig, encodeLinkFragment, decodeLink } from '../../src/core/config';
import { LABS } from '../../src/labs/registry';
import { opinionsLab } from '../../src/labs/opinions/config';
import { exportSets, freshId, parseSetsFile, SETS_FORMAT, upsert } from '../../src/labs/opinions/community/sets-io';
import { BUNDLED_PERSONAS, BUNDLED_QUESTIONS } from '../../src/labs/opinions/community/sets';
import { SET_LIMITS } from '../../src/labs/opinions/community/schema';
import { personaPool, questionPool } from '../../src/labs/opinions/community-data';

describe('persona and question sets: import and export', () => {
  it('an export of the full pool imports back to nothing new; an edit comes back as the one edited item', () => {
    const text = exportSets(BUNDLED_PERSONAS, BUNDLED_QUESTIONS);
    const back = parseSetsFile(text);
    expect(back).toEqual({ ok: true, sets: { personas: [], questions: [] }, dropped: BUNDLED_PERSONAS.length + BUNDLED_QUESTIONS.length });
    const obj = JSON.parse(text);
    obj.personas[0].text = 'You are a 30-year-old sailor from Maine. You are calm.';
    obj.questions.push({ kind: 'subjective', id: 'new1', text: 'Dogs should be allowed in every shop.', lean: 'left' });
    const r = parseSetsFile(JSON.stringify(obj));
    expect(r.ok && r.sets.personas).toEqual([{ id: 'p01', text: 'You are a 30-year-old sailor from Maine. You are calm.' }]);
    expect(r.ok && r.sets.questions.map((q) => q.id)).toEqual(['new1']);
    // The imported sets are a valid config, and survive a link.
    if (!r.ok) throw new Error('import failed');
    const v = validateConfig(opinionsLab, { mode: 'community', sets: r.sets });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const decoded = decodeLink(encodeLinkFragment(opinionsLab, v.value), LABS);
    expect(decoded.ok && (decoded.value.config as typeof v.value).sets).toEqual(r.sets);
    expect(personaPool(v.value)[0].text).toMatch(/sailor/);
    expect(questionPool(v.value).some((q) => q.id === 'new1')).toBe(true);
  });

  it('refuses hostile, malformed and oversized files with a reason', () => {
    const cases: [string, RegExp][] = [
      ['not json', /not valid JSON/],
      ['[1,2]', /JSON object/],
      [JSON.stringify({ format: 'other@1', personas: [] }), /format/],
      [JSON.stringify({ personas: [{ id: 'x', text: '<img src=x onerror=alert(1)>' }] }), /markup/],
      ['{"personas": [], "__proto__": {"polluted": 1}}', /__proto__/],
      [JSON.stringify({ personas: [{ id: 'x', text: 'ok', extra: 1 }] }), /personas\.0/],
      [JSON.stringify({ personas: 'nope' }), /personas/],
      [JSON.stringify({ questions: [{ kind: 'objective', id: 'o', text: 'q', answer: 'a' }] }), /questions\.0/],
      [JSON.stringify({ personas: Array.from({ length: SET_LIMITS.personas + 1 }, (_, i) => ({ id: `x${i}`, text: 't' })) }), /personas/],
      [JSON.stringify({ personas: [{ id: 'x', text: 'line one\nline two' }] }), /one line/],
    ];
    for (const [text, re] of cases) {
      const r = parseSetsFile(text);
      expect(r.ok, text.slice(0, 60)).toBe(false);
      if (!r.ok) expect(r.errors.join('; '), text.slice(0, 60)).toMatch(re);
    }
    expect(parseSetsFile('{}', 2 * 1024 * 1024)).toEqual({ ok: false, errors: [expect.stringMatching(/larger than 1 MB/)] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(exportSets([], [])).format).toBe(SETS_FORMAT);
  });

  it('upsert and fresh ids', () => {
    expect(upsert([{ id: 'a', v: 1 }], { id: 'a', v: 2 })).toEqual([{ id: 'a', v: 2 }]);
    expect(upsert([{ id: 'a', v: 1 }], { id: 'b', v: 2 }).length).toBe(2);
    expect(freshId(['my1', 'my2'], 'my')).toBe('my3');
  });
});
