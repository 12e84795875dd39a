/**
 * The one CSV writer of the app, the CLI and the workers (docs/reliability.md, "Safe exports"). Quoting is d3-dsv's
 * (RFC 4180: a cell holding `"`, `,`, `\n` or `\r` is quoted, `"` doubled), not written by hand.
 *
 * Exported text can hold what a model wrote (reasons, labels, names). A spreadsheet reads a cell that begins with
 * `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`), and one that begins with a tab or a
 * carriage return can hide one: CSV injection (OWASP). So every *text* cell, header cells included, that begins
 * with one of those six characters gets a leading `'`, which spreadsheets read as "this is text".
 *
 * Numbers are never altered: a number is written as JavaScript writes it (`-0.5` stays `-0.5`), so a value must be
 * passed as a number, never pre-formatted as a string. A string `"-0.50"` is text, and is neutralised to `'-0.50`;
 * telling numeric-looking strings apart instead would let `-2+3` (a formula) through, so numbers are recognised by
 * their type alone. Non-finite numbers (NaN, ±Infinity), null and undefined are empty cells: `-Infinity` would read
 * as a formula, and an empty cell is what every reader takes as "missing".
 */
import { csvFormatRow } from 'd3-dsv';

/** One cell: text (neutralised, then quoted as needed), a number (as is), a boolean (`true`/`false`) or nothing. */
export type CsvCell = string | number | boolean | null | undefined;

/** Characters that make a spreadsheet read a text cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A text cell that `neutraliseCsvText` changed: the added quote followed by a formula character. */
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** The text as it is written to a cell: with a leading `'` when it begins with `=` `+` `-` `@`, a tab or a CR. */
export function neutraliseCsvText(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/**
 * Undoes `neutraliseCsvText` on a cell read back from one of our own files (the importers of trajectories and of
 * outcome rows): a leading `'` followed by a formula character is dropped. Any other text is returned as it is.
 */
export function readCsvText(s: string): string {
  return NEUTRALISED.test(s) ? s.slice(1) : s;
}

/** The text of one cell before quoting. */
export function csvCellText(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return neutraliseCsvText(v);
}

function line(cells: readonly CsvCell[]): string {
  const text = cells.map(csvCellText);
  // A row of one empty cell would be an empty line, which readers skip; RFC 4180 allows it quoted.
  if (text.length === 1 && text[0] === '') return '""';
  return csvFormatRow(text);
}

/**
 * A CSV file: the header row, then one line per row, each line ended by `\n`. Rows are written as given (no check
 * that they have as many cells as the header).
 */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const lines = [line(header)];
  for (const r of rows) lines.push(line(r));
  return lines.join('\n') + '\n';
}
