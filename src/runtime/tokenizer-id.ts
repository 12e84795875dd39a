/**
 * A tokenizer's identity: its vocabulary size and a 64-bit hash of every (id, token) pair, in id order, so that two
 * models share an id exactly when they cut text into the same tokens with the same numbers. The Similarity lab's
 * "same tokenizer" covariate compares these (a hub model's files say nothing else reliable about it: families share
 * tokenizers across sizes, and fine-tunes add tokens).
 */
export function tokenizerId(vocab: ReadonlyMap<string, number>): string {
  const byId = [...vocab].sort((a, b) => a[1] - b[1]);
  // Two 32-bit FNV-1a passes with different offsets give 64 bits; one pass alone would do for a handful of tokenizers.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  const mix = (code: number) => {
    h1 = Math.imul(h1 ^ code, 0x01000193);
    h2 = Math.imul(h2 ^ code, 0x01000193) ^ (h2 >>> 15);
  };
  for (const [token, id] of byId) {
    for (const digit of String(id)) mix(digit.charCodeAt(0));
    mix(9); // tab
    for (let i = 0; i < token.length; i++) mix(token.charCodeAt(i));
    mix(10); // newline
  }
  const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0');
  return `v${vocab.size}-${hex(h1)}${hex(h2)}`;
}
