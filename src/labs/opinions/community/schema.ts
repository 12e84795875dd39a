/**
 * Config pieces of the LLM community run: the edited or imported persona and question sets that travel in the link,
 * with their caps. Every string is also scanned for markup by validateConfig (like any link string), and shown only as
 * text.
 */
import { z } from 'zod';

export const SET_LIMITS = {
  /** Edited or imported personas carried by a config. */
  personas: 256,
  personaChars: 300,
  questions: 64,
  questionChars: 400,
  answerChars: 60,
  /** All persona and question text together, so a link stays well inside its 64 KB. */
  totalChars: 24_000,
  /** A per-node persona list (manual assignment). */
  assignment: 1000,
} as const;

export const ITEM_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
export const itemId = () => z.string().regex(ITEM_ID_PATTERN, 'must be 1–32 of A–Z a–z 0–9 _ . - (starting with a letter or digit)');

/** One line of plain text: no control characters (a newline would let an item forge prompt structure). */
const line = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this check rejects
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must be one line of text (no newlines or control characters)')
    .refine((s) => s.trim().length > 0, 'must not be blank');

export const personaSchema = z.strictObject({ id: itemId(), text: line(SET_LIMITS.personaChars) });

export const subjectiveSchema = z.strictObject({
  kind: z.literal('subjective'),
  id: itemId(),
  text: line(SET_LIMITS.questionChars),
  lean: z.enum(['left', 'right']).describe('left: agreeing is the left-leaning position'),
});

export const objectiveSchema = z
  .strictObject({
    kind: z.literal('objective'),
    id: itemId(),
    text: line(SET_LIMITS.questionChars),
    answer: line(SET_LIMITS.answerChars),
    wrong: line(SET_LIMITS.answerChars),
    example: z.strictObject({ problem: line(SET_LIMITS.questionChars), solution: line(SET_LIMITS.questionChars) }),
  })
  .refine((q) => q.answer.trim() !== q.wrong.trim(), { message: 'the wrong answer must differ from the correct one', path: ['wrong'] });

export const questionSchema = z.discriminatedUnion('kind', [subjectiveSchema, objectiveSchema]);

function duplicateIds(items: readonly { id: string }[]): string | null {
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.id)) return it.id;
    seen.add(it.id);
  }
  return null;
}

function setChars(personas: readonly { text: string }[], questions: readonly z.infer<typeof questionSchema>[]): number {
  let n = 0;
  for (const p of personas) n += p.text.length;
  for (const q of questions)
    n += q.text.length + (q.kind === 'objective' ? q.answer.length + q.wrong.length + q.example.problem.length + q.example.solution.length : 0);
  return n;
}

/** `sets`: personas and questions added to (or, with the same id, replacing) the bundled ones. */
export const setsGroup = () =>
  z
    .strictObject({
      personas: z.array(personaSchema).max(SET_LIMITS.personas).default([]).describe('Edited or imported personas (the Personas panel writes these)'),
      questions: z.array(questionSchema).max(SET_LIMITS.questions).default([]).describe('Edited or imported questions (the Personas panel writes these)'),
    })
    .superRefine((s, ctx) => {
      const dp = duplicateIds(s.personas);
      if (dp) ctx.addIssue({ code: 'custom', path: ['personas'], message: `the persona id "${dp}" appears twice` });
      const dq = duplicateIds(s.questions);
      if (dq) ctx.addIssue({ code: 'custom', path: ['questions'], message: `the question id "${dq}" appears twice` });
      const chars = setChars(s.personas, s.questions);
      if (chars > SET_LIMITS.totalChars)
        ctx.addIssue({
          code: 'custom',
          path: ['personas'],
          message: `personas and questions hold ${chars} characters; at most ${SET_LIMITS.totalChars} travel in a link`,
        });
    })
    .prefault({})
    // The form leaves these lists out: the Personas and questions panel edits them.
    .meta({ form: false });

export type PersonaInput = z.infer<typeof personaSchema>;
export type QuestionInput = z.infer<typeof questionSchema>;
