/**
 * JSON for results that hold typed arrays: JSON.stringify writes a Float64Array as {"0": …, "1": …}, so exports pass
 * this replacer to write it as a list.
 */

/** A typed array (not a DataView): the views that JSON should write as lists. */
const isTypedArray = (v: unknown): v is ArrayLike<number> => ArrayBuffer.isView(v) && !(v instanceof DataView);

/** A JSON.stringify replacer that writes every typed array as a plain list of its numbers. */
export function typedArraysAsLists(_key: string, value: unknown): unknown {
  return isTypedArray(value) ? Array.from(value) : value;
}
