/**
 * Constrained decoding with XGrammar (@mlc-ai/web-xgrammar, the build WebLLM uses): at each step only the tokens
 * that keep the reply inside a grammar may be chosen, so a structured reply (a vote, a yes/no, a JSON object) cannot
 * fail to parse. The grammar is EBNF (XGrammar's dialect); it is compiled once per tokenizer and grammar.
 *
 * The package ships a UMD bundle inside a "type: module" package: imported as ESM it exports nothing and sets
 * `globalThis.xgrammar` instead, and on Node its loader calls `require` and reads `__filename`, which an ES module
 * lacks. `loadXGrammar` gives it both, then reads the global (or, in a bundle, the module's exports).
 */
type XGrammar = typeof import('@mlc-ai/web-xgrammar');
type CompiledGrammar = import('@mlc-ai/web-xgrammar').CompiledGrammar;
type GrammarMatcher = import('@mlc-ai/web-xgrammar').GrammarMatcher;
type TokenizerInfo = import('@mlc-ai/web-xgrammar').TokenizerInfo;

let loading: Promise<XGrammar> | null = null;

async function loadXGrammar(): Promise<XGrammar> {
  return (loading ??= (async () => {
    const g = globalThis as { xgrammar?: XGrammar; require?: unknown; __filename?: string; process?: { versions?: { node?: string } } };
    if (g.process?.versions?.node && typeof g.require === 'undefined') {
      const { createRequire } = await import('node:module');
      const req = createRequire(import.meta.url);
      g.require = req;
      g.__filename = req.resolve('@mlc-ai/web-xgrammar');
    }
    // Node runs the UMD as it is (it sets the global); a bundler turns it into a CommonJS module with exports.
    const mod = (await import('@mlc-ai/web-xgrammar')) as Partial<XGrammar> & { default?: Partial<XGrammar> };
    const found = [g.xgrammar, mod, mod.default].find((m): m is XGrammar => Boolean(m?.GrammarCompiler));
    if (!found) throw new Error('XGrammar did not load (constrained decoding is unavailable here).');
    return found;
  })());
}

/** Whether a whole text is a reply that `ebnf` allows (XGrammar's own check, character by character): for testing grammars. */
export async function grammarAccepts(ebnf: string, text: string): Promise<boolean> {
  const xgr = await loadXGrammar();
  const grammar = await xgr.Grammar.fromEBNF(ebnf);
  try {
    return await xgr.Testings.isGrammarAcceptString(grammar, text);
  } finally {
    grammar.dispose();
  }
}

/** How the tokenizer writes bytes in its vocabulary: GPT-2's byte-level (Ġ for a space) or SentencePiece's ▁ with <0x..> byte fallback. */
export function vocabType(tokens: readonly string[]): 'byte_level' | 'byte_fallback' {
  return tokens.includes('<0x0A>') && tokens.some((t) => t.startsWith('▁')) ? 'byte_fallback' : 'byte_level';
}

/** One model's grammars: its tokenizer described once to XGrammar, each grammar compiled once. */
export class GrammarSession {
  private compiled = new Map<string, Promise<CompiledGrammar>>();
  private constructor(
    private readonly xgr: XGrammar,
    private readonly info: TokenizerInfo,
    private readonly stopIds: number[],
  ) {}

  /** `tokens[id]` is the vocabulary's token `id` as the tokenizer file writes it; `vocabSize` is the model's logits width. */
  static async create(tokens: readonly string[], vocabSize: number, stopIds: readonly number[]): Promise<GrammarSession> {
    const xgr = await loadXGrammar();
    const info = await xgr.TokenizerInfo.createTokenizerInfo([...tokens], vocabType(tokens), false, vocabSize, [...stopIds]);
    return new GrammarSession(xgr, info, [...stopIds]);
  }

  /** A fresh matcher for one reply under `ebnf` (root rule `root`). A grammar XGrammar cannot read rejects here. */
  async matcher(ebnf: string): Promise<GrammarMatcher> {
    let c = this.compiled.get(ebnf);
    if (!c) {
      const compiler = await this.xgr.GrammarCompiler.createGrammarCompiler(this.info);
      c = compiler.compileGrammar(ebnf);
      this.compiled.set(ebnf, c);
      c.catch(() => this.compiled.delete(ebnf));
    }
    return this.xgr.GrammarMatcher.createGrammarMatcher(await c, this.stopIds);
  }
}

/**
 * Sets every logit that the bitmask forbids to −Infinity (bit i of word i >> 5 set = token i allowed). Logits past
 * the tokenizer's vocabulary (a model padded to a round size) are forbidden too.
 */
export function applyBitmask(logits: Float32Array, bitmask: Int32Array): void {
  for (let i = 0; i < logits.length; i++) {
    const word = bitmask[i >> 5];
    if (word === undefined || !(word & (1 << (i & 31)))) logits[i] = -Infinity;
  }
}
