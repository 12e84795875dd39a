import type { ChatMessage } from './types';

/** One prompt of the embedded model's PyTorch reference (models/tiny-social/reference.json). */
export interface HiddenStateCase {
  kind: 'chat' | 'plain';
  messages: ChatMessage[] | null;
  text: string;
  input_ids: number[];
  /** [L+1, H]: the residual stream at the last prompt token, embeddings first. */
  hidden_last_token: number[][];
  greedy_continuation: number[];
}

/** The reference file as the model build writes it; the diagnostics panel and the runtime tests read it. */
export interface HiddenStateFixture {
  num_layers: number;
  hidden_size: number;
  eos_token_ids: number[];
  tolerances: { fp32: { hidden_max_abs: number }; q4: { hidden_max_abs: number } };
  cases: HiddenStateCase[];
}
