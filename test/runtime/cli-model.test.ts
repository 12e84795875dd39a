import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { statesCommand } from '../../cli/commands/states.ts';
import { generateCommand } from '../../cli/commands/generate.ts';
import { readSafetensors } from '../../src/core/safetensors.ts';

const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../models/tiny-social/reference.json'), 'utf8')) as {
  shape: [number, number];
  tolerances: { fp32: { hidden_max_abs: number } };
  cases: { kind: string; text: string; messages: { content: string }[] | null; input_ids: number[]; hidden_last_token: number[][] }[];
};

async function run(cmd: typeof statesCommand, values: Record<string, string | boolean>, json = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await cmd.run({ positionals: [], values, json, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('CLI states / generate on the embedded model', () => {
  it('states --json gives the fixture states for a chat prompt', async () => {
    const c = fixture.cases.find((x) => x.kind === 'chat')!;
    const r = await run(statesCommand, { model: 'tiny-social', prompt: c.messages![0].content, chat: true, device: 'cpu', dtype: 'fp32' }, true);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.shape).toEqual(fixture.shape);
    expect(j.input_ids).toEqual(c.input_ids);
    expect(j.backend).toBe('cpu');
    const diff = (j.hidden_states as number[][])
      .flat()
      .reduce((m: number, v: number, i: number) => Math.max(m, Math.abs(v - c.hidden_last_token.flat()[i])), 0);
    expect(diff).toBeLessThanOrEqual(fixture.tolerances.fp32.hidden_max_abs);
  });

  it('states --out writes a safetensors file with the states and the token ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sml-cli-'));
    const file = join(dir, 's.safetensors');
    const c = fixture.cases.find((x) => x.kind === 'plain')!;
    const r = await run(statesCommand, { model: 'tiny-social', prompt: c.text, out: file });
    expect(r.code).toBe(0);
    const st = readSafetensors(new Uint8Array(readFileSync(file)));
    expect(st.tensors.hidden_states.shape).toEqual(fixture.shape);
    expect(Array.from(st.tensors.input_ids.data as Int32Array)).toEqual(c.input_ids);
    expect(st.metadata.model).toBe('tiny-social');
    rmSync(dir, { recursive: true, force: true });
  });

  it('generate --seed reproduces and a missing --model is a usage error', async () => {
    const a = await run(generateCommand, { model: 'tiny-social', prompt: 'Once upon a time', seed: '5', 'max-new-tokens': '8' }, true);
    const b = await run(generateCommand, { model: 'tiny-social', prompt: 'Once upon a time', seed: '5', 'max-new-tokens': '8' }, true);
    expect(JSON.parse(a.out).tokens).toEqual(JSON.parse(b.out).tokens);
    expect(JSON.parse(a.out).temperature).toBe(0.7);
    await expect(run(generateCommand, { prompt: 'x' })).rejects.toThrow(/--model is required/);
  });

  it("samples at the model's own top-k (generation_config.json top_k), unless --top-k sets another", async () => {
    // tiny-social with a generation_config asking for top-k 1, which leaves only the likeliest token: sampling at 0.7
    // must then give the greedy reply, at every seed.
    const dir = mkdtempSync(join(tmpdir(), 'sml-topk-'));
    try {
      cpSync(resolve(import.meta.dirname, '../../models/tiny-social'), dir, { recursive: true });
      const gen = JSON.parse(readFileSync(join(dir, 'generation_config.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...gen, top_k: 1 }));
      const ask = (extra: Record<string, string>) =>
        run(generateCommand, { model: dir, prompt: 'Once upon a time', 'max-new-tokens': '12', ...extra }, true).then((r) => JSON.parse(r.out));
      const greedy = (await ask({ temperature: '0' })).tokens;
      let free = 0;
      for (const seed of ['1', '2', '3']) {
        const own = await ask({ seed });
        expect(own.topK).toBe(1);
        expect(own.tokens).toEqual(greedy);
        const none = await ask({ seed, 'top-k': '0' });
        expect(none.topK).toBe(0);
        if (none.tokens.join() !== greedy.join()) free++;
      }
      expect(free).toBeGreaterThan(0);
      await expect(ask({ seed: '1', 'top-k': '2.5' })).rejects.toThrow(/--top-k must be a whole number/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['encoder_repetition_penalty', 'prompt-boost', 'promptBoost'],
    ['repetition_penalty', 'repetition-penalty', 'repetitionPenalty'],
  ] as const)("applies the model's %s as its file asks, greedy replies too, unless --%s sets another", async (field, flag, key) => {
    const dir = mkdtempSync(join(tmpdir(), 'sml-penalty-'));
    try {
      cpSync(resolve(import.meta.dirname, '../../models/tiny-social'), dir, { recursive: true });
      const ask = (extra: Record<string, string>) =>
        run(generateCommand, { model: dir, prompt: 'Once upon a time there was a time', 'max-new-tokens': '16', temperature: '0', ...extra }, true).then((r) =>
          JSON.parse(r.out),
        );
      const plain = await ask({});
      expect(plain[key]).toBe(1);
      const gen = JSON.parse(readFileSync(join(dir, 'generation_config.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...gen, [field]: 3 }));
      const own = await ask({});
      expect(own[key]).toBe(3);
      expect(own.tokens).not.toEqual(plain.tokens);
      // 1 turns it off: the model's greedy reply again
      expect((await ask({ [flag]: '1' })).tokens).toEqual(plain.tokens);
      await expect(ask({ [flag]: '0' })).rejects.toThrow(new RegExp(`--${flag} must be above 0`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never writes a sequence the model's bad_words_ids bans, greedy replies too; a broken list bans nothing and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sml-bans-'));
    try {
      cpSync(resolve(import.meta.dirname, '../../models/tiny-social'), dir, { recursive: true });
      const gen = JSON.parse(readFileSync(join(dir, 'generation_config.json'), 'utf8')) as Record<string, unknown>;
      const ask = () => run(generateCommand, { model: dir, prompt: 'Once upon a time there was a time', 'max-new-tokens': '16', temperature: '0' }, true);
      const plain = JSON.parse((await ask()).out) as { tokens: number[]; bannedSequences: number };
      expect(plain.bannedSequences).toBe(0);
      const t = plain.tokens;
      // the greedy reply's second token, and the pair it writes at positions 4-5
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...gen, bad_words_ids: [[t[1]], [t[4], t[5]]] }));
      const banned = JSON.parse((await ask()).out) as { tokens: number[]; bannedSequences: number };
      expect(banned.bannedSequences).toBe(2);
      expect(banned.tokens[0]).toBe(t[0]);
      expect(banned.tokens).not.toContain(t[1]);
      for (let i = 0; i + 1 < banned.tokens.length; i++) expect([banned.tokens[i], banned.tokens[i + 1]]).not.toEqual([t[4], t[5]]);
      // only the pair: its first token alone is still written where the reply needs it
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...gen, bad_words_ids: [[t[4], t[5]]] }));
      const pair = JSON.parse((await ask()).out) as { tokens: number[] };
      expect(pair.tokens.slice(0, 5)).toEqual(t.slice(0, 5));
      expect(pair.tokens[5]).not.toBe(t[5]);
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...gen, bad_words_ids: [['<script>']] }));
      const broken = await ask();
      expect((JSON.parse(broken.out) as { tokens: number[] }).tokens).toEqual(t);
      expect(broken.err).toMatch(/bad_words_ids is not a list of token-id lists/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
