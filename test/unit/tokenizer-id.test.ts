import { describe, expect, it } from 'vitest';
import { tokenizerId } from '../../src/runtime/tokenizer-id';

const vocab = (entries: [string, number][]) => new Map(entries);

describe('tokenizerId', () => {
  it('is the same for the same vocabulary, whatever the order it is listed in', () => {
    const a = vocab([
      ['a', 0],
      ['b', 1],
      ['ab', 2],
    ]);
    const b = vocab([
      ['ab', 2],
      ['a', 0],
      ['b', 1],
    ]);
    expect(tokenizerId(a)).toBe(tokenizerId(b));
    expect(tokenizerId(a)).toMatch(/^v3-[0-9a-f]{16}$/);
  });
  it('differs when a token, a number or the size differs', () => {
    const base = tokenizerId(
      vocab([
        ['a', 0],
        ['b', 1],
        ['ab', 2],
      ]),
    );
    expect(
      tokenizerId(
        vocab([
          ['a', 0],
          ['b', 1],
          ['ba', 2],
        ]),
      ),
    ).not.toBe(base);
    expect(
      tokenizerId(
        vocab([
          ['a', 1],
          ['b', 0],
          ['ab', 2],
        ]),
      ),
    ).not.toBe(base);
    expect(
      tokenizerId(
        vocab([
          ['a', 0],
          ['b', 1],
          ['ab', 2],
          ['<pad>', 3],
        ]),
      ),
    ).not.toBe(base);
    // a token split differently across entries must not collide: ("a\\t1", …) framing
    expect(
      tokenizerId(
        vocab([
          ['a1', 0],
          ['', 1],
        ]),
      ),
    ).not.toBe(
      tokenizerId(
        vocab([
          ['a', 0],
          ['1', 1],
        ]),
      ),
    );
  });
});
