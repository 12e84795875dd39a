/**
 * Hidden-state taps for decoder-only ONNX graphs.
 *
 * detectTaps() finds, on the ORIGINAL topology, the tensor that holds the residual stream entering each decoder
 * layer (state 0 = the embeddings) and leaving the last one (state L). Three layouts are recognised, tried in order
 * for every state:
 *   optimum  torch/Optimum node names: the residual after layer N is `/model/layers.N/Add_1_output_0`; the
 *            embeddings are the input of `/model/layers.0/Add` that does not come from inside layer 0.
 *   fused    onnxruntime-genai builder: output 3 of the next SkipSimplifiedLayerNormalization
 *            (`/model/layers.{N+1}/input_layernorm/output_3`); the final norm does not materialise the sum, so an
 *            Add of its two inputs is added.
 *   anchor   renamed graphs: anchor on the next norm's weight initializer (`model.layers.{N+1}.input_layernorm.weight`,
 *            `model.norm.weight`), find the node that consumes it and walk to the norm's input.
 *
 * buildTapSuffix() writes a serialized ModelProto holding only `graph { node…, output… }`. Appended to the original
 * bytes, a protobuf parser merges it into the graph: the new nodes gather the last position of every state
 * (the runtime left-pads, so the last position is each row's last token), cast to fp32 and concatenate them into
 * one output `hidden_states_last` of shape [L+1, batch, hidden]: one readback per forward call.
 */
import { Writer } from './protobuf';
import { readOnnxTopology, TENSOR_FLOAT, TENSOR_INT64, type OnnxGraphTopology, type OnnxModelTopology, type OnnxNode } from './model';

export const TAP_OUTPUT = 'hidden_states_last';
const P = 'sml_tap/';

export type TapStyle = 'optimum' | 'fused' | 'anchor';

export interface TapSource {
  /** 0 = embeddings, k = residual stream after decoder layer k-1. */
  state: number;
  style: TapStyle;
  /** An existing tensor that holds the state... */
  tensor?: string;
  /** ...or the two tensors whose sum is the state (a fused norm that does not output its sum). */
  sum?: [string, string];
}

export interface TapPlan {
  modelName: string;
  numLayers: number;
  /** From the final norm's weight, when it has one. */
  hiddenSize?: number;
  sources: TapSource[];
  /** The styles that were used, e.g. ['optimum'] or ['fused', 'anchor']. */
  styles: TapStyle[];
}

export interface TapOptions {
  /** Used in error messages. */
  modelName: string;
  /** config.num_hidden_layers; inferred from the graph when absent. */
  numLayers?: number;
}

export class TapDetectionError extends Error {
  constructor(
    readonly modelName: string,
    detail: string,
  ) {
    super(`Cannot find the residual stream of "${modelName}": ${detail}`);
    this.name = 'TapDetectionError';
  }
}

interface Index {
  g: OnnxGraphTopology;
  producer: Map<string, OnnxNode>;
  consumers: Map<string, OnnxNode[]>;
  isConst: (t: string) => boolean;
}

function buildIndex(g: OnnxGraphTopology): Index {
  const producer = new Map<string, OnnxNode>();
  const consumers = new Map<string, OnnxNode[]>();
  for (const n of g.nodes) {
    for (const o of n.outputs) if (o) producer.set(o, n);
    for (const i of n.inputs) {
      if (!i) continue;
      const list = consumers.get(i);
      if (list) list.push(n);
      else consumers.set(i, [n]);
    }
  }
  const isConst = (t: string) => g.initializers.has(t) || producer.get(t)?.opType === 'Constant';
  return { g, producer, consumers, isConst };
}

const LAYER_INIT = /^model\.layers\.(\d+)\./;
const LAYER_NODE = /^\/model\/layers\.(\d+)\//;

/** Decoder layer count: from the options, else from `model.layers.N.` initializers or `/model/layers.N/Add_1` names. */
function inferNumLayers(ix: Index, opts: TapOptions): number {
  if (opts.numLayers !== undefined) return opts.numLayers;
  // the builder names its final norm `model.layers.{L}.final_norm_layernorm.weight`: not a decoder layer
  let fromNorms = 0;
  let fromInit = 0;
  for (const name of ix.g.initializers.keys()) {
    const m = LAYER_INIT.exec(name);
    if (!m || name.includes('final_norm')) continue;
    fromInit = Math.max(fromInit, Number(m[1]) + 1);
    if (name.endsWith('.input_layernorm.weight')) fromNorms = Math.max(fromNorms, Number(m[1]) + 1);
  }
  if (fromNorms > 0) fromInit = fromNorms;
  let fromAdd = 0;
  for (const n of ix.g.nodes) {
    const m = LAYER_NODE.exec(n.name);
    if (m && n.name === `/model/layers.${m[1]}/Add_1`) fromAdd = Math.max(fromAdd, Number(m[1]) + 1);
  }
  const layers = Math.max(fromInit, fromAdd);
  if (layers > 0) return layers;
  throw new TapDetectionError(opts.modelName, 'no decoder layers found (no `model.layers.N.*` weights and no `/model/layers.N/` nodes).');
}

const FUSED_SKIP_NORMS = new Set(['SkipSimplifiedLayerNormalization', 'SkipLayerNormalization']);
const FUSED_NORMS = new Set(['SimplifiedLayerNormalization', 'LayerNormalization', 'RMSNormalization']);

/** Resolves a norm node to the tensor (or sum of tensors) it normalises. */
function normInput(ix: Index, weight: string): Omit<TapSource, 'state'> | undefined {
  const users = ix.consumers.get(weight);
  if (!users?.length) return undefined;
  let node = users[0];
  if (FUSED_SKIP_NORMS.has(node.opType)) {
    const sumOut = node.outputs[3];
    if (sumOut) return { style: 'fused', tensor: sumOut };
    return { style: 'fused', sum: [node.inputs[0], node.inputs[1]] };
  }
  if (FUSED_NORMS.has(node.opType)) return { style: 'fused', tensor: node.inputs[0] };
  // The weight may pass through a transform first (Gemma's 1 + w, a Cast in fp16 exports): follow it down.
  for (let hops = 0; hops < 3 && node.inputs.every((t) => !t || ix.isConst(t)); hops++) {
    const next = ix.consumers.get(node.outputs[0])?.[0];
    if (!next) return undefined;
    node = next;
  }
  // Decomposed RMSNorm/LayerNorm: the input x feeds two nodes of the norm (Pow and Mul, or ReduceMean and Sub).
  // Walk up from the weight's Mul; the first tensor found that two visited nodes consume is x.
  const order: string[] = [];
  const uses = new Map<string, number>();
  const seen = new Set<OnnxNode>([node]);
  let frontier: OnnxNode[] = [node];
  for (let depth = 0; depth < 12 && frontier.length; depth++) {
    const next: OnnxNode[] = [];
    for (const n of frontier) {
      for (const t of n.inputs) {
        if (!t || ix.isConst(t)) continue;
        if (!uses.has(t)) order.push(t);
        uses.set(t, (uses.get(t) ?? 0) + 1);
        const p = ix.producer.get(t);
        if (p && !seen.has(p)) {
          seen.add(p);
          next.push(p);
        }
      }
    }
    frontier = next;
  }
  const x = order.find((t) => (uses.get(t) ?? 0) >= 2);
  return x ? { style: 'anchor', tensor: x } : undefined;
}

/** Names the final norm's weight goes by: HF/Optimum, and the onnxruntime-genai builder's node-derived name. */
const FINAL_NORM_WEIGHTS = (L: number) => ['model.norm.weight', `model.layers.${L}.final_norm_layernorm.weight`, 'model.final_norm.weight'];

function exists(ix: Index, t: string): boolean {
  return ix.producer.has(t) || ix.g.inputs.some((i) => i.name === t);
}

function findState(ix: Index, k: number, L: number): TapSource | undefined {
  if (k === 0) {
    // optimum: the first residual Add of layer 0 adds the embeddings (from outside the layer) to the attention output
    const add0 = ix.g.nodes.find((n) => n.name === '/model/layers.0/Add' && n.opType === 'Add');
    if (add0) {
      // transformers' RMSNorms cast their input to fp32 first; in an fp32 export that Cast is the very tensor the
      // residual Add reads (torch's `.to(float32)` returns its input), so it sits inside layer 0. Look through it.
      const origin = (t: string): string => {
        const p = ix.producer.get(t);
        return p?.opType === 'Cast' && p.name.startsWith('/model/layers.0/') && p.inputs[0] ? origin(p.inputs[0]) : t;
      };
      const outside = add0.inputs.filter((t) => t && !ix.isConst(t) && !ix.producer.get(origin(t))?.name.startsWith('/model/layers.0/'));
      if (outside.length === 1) return { state: 0, style: 'optimum', tensor: outside[0] };
    }
  } else {
    const optimum = `/model/layers.${k - 1}/Add_1_output_0`;
    if (ix.producer.has(optimum)) return { state: k, style: 'optimum', tensor: optimum };
    const fused = `/model/layers.${k}/input_layernorm/output_3`;
    if (k < L && ix.producer.has(fused)) return { state: k, style: 'fused', tensor: fused };
  }
  const weights = k < L ? [`model.layers.${k}.input_layernorm.weight`] : FINAL_NORM_WEIGHTS(L);
  for (const weight of weights) {
    const found = normInput(ix, weight);
    if (found && (found.tensor ? exists(ix, found.tensor) : found.sum!.every((t) => exists(ix, t)))) return { state: k, ...found };
  }
  if (k === L) {
    // the builder's final norm, found by its node name when its weight has another name
    const node = ix.g.nodes.find((n) => n.name.startsWith(`/model/layers.${L}/final_norm_layernorm/`) && FUSED_SKIP_NORMS.has(n.opType));
    if (node)
      return { state: k, style: 'fused', ...(node.outputs[3] ? { tensor: node.outputs[3] } : { sum: [node.inputs[0], node.inputs[1]] as [string, string] }) };
  }
  return undefined;
}

/** Finds the L+1 residual-stream tensors on the original graph. Throws TapDetectionError naming the model. */
export function detectTaps(topo: OnnxModelTopology, opts: TapOptions): TapPlan {
  const ix = buildIndex(topo.graph);
  const L = inferNumLayers(ix, opts);
  const sources: TapSource[] = [];
  for (let k = 0; k <= L; k++) {
    const s = findState(ix, k, L);
    if (!s) {
      const where = k === 0 ? 'the embeddings (the input of layer 0)' : `the residual stream after layer ${k - 1} of ${L}`;
      throw new TapDetectionError(
        opts.modelName,
        `${where} matches none of the known layouts (Optimum names \`/model/layers.N/Add_1\`, fused SkipSimplifiedLayerNormalization, ` +
          `or a norm weight named \`model.layers.N.input_layernorm.weight\` / \`model.norm.weight\`). ` +
          'Hybrid or non-standard architectures (e.g. convolution or state-space blocks) are not supported.',
      );
    }
    sources.push(s);
  }
  const keys = sources.map((s) => s.tensor ?? s.sum!.join('+'));
  if (new Set(keys).size !== keys.length) {
    throw new TapDetectionError(opts.modelName, `two layers resolved to the same tensor (${keys.join(', ')}); the layout is ambiguous.`);
  }
  const norm = FINAL_NORM_WEIGHTS(L)
    .map((w) => topo.graph.initializers.get(w))
    .find(Boolean);
  const hiddenSize = norm?.dims.length === 1 ? norm.dims[0] : undefined;
  const styles = [...new Set(sources.map((s) => s.style))];
  return { modelName: opts.modelName, numLayers: L, hiddenSize, sources, styles };
}

// ---------------------------------------------------------------------------------------------------------------
// writing the suffix

const ATTR_INT = 2;
const ATTR_TENSOR = 4;
const ATTR_INTS = 7;

function int64Tensor(values: number[], dims: number[]): Writer {
  const t = new Writer();
  for (const d of dims) t.varint(1, d);
  t.varint(2, TENSOR_INT64);
  const raw = new DataView(new ArrayBuffer(values.length * 8));
  values.forEach((v, i) => raw.setBigInt64(i * 8, BigInt(v), true));
  t.bytes(9, new Uint8Array(raw.buffer));
  return t;
}

interface Attr {
  name: string;
  int?: number;
  ints?: number[];
  tensor?: Writer;
}

function nodeMsg(op: string, name: string, inputs: string[], outputs: string[], attrs: Attr[] = []): Writer {
  const n = new Writer();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, name);
  n.string(4, op);
  for (const a of attrs) {
    const w = new Writer().string(1, a.name);
    if (a.int !== undefined) w.varint(3, a.int).varint(20, ATTR_INT);
    else if (a.ints) {
      for (const v of a.ints) w.varint(8, v);
      w.varint(20, ATTR_INTS);
    } else if (a.tensor) w.message(5, a.tensor).varint(20, ATTR_TENSOR);
    n.message(5, w);
  }
  return n;
}

function outputInfo(name: string, dims: (number | string)[]): Writer {
  const shape = new Writer();
  for (const d of dims) shape.message(1, typeof d === 'number' ? new Writer().varint(1, d) : new Writer().string(2, d));
  const tensorType = new Writer().varint(1, TENSOR_FLOAT).message(2, shape);
  return new Writer().string(1, name).message(2, new Writer().message(1, tensorType));
}

/** The serialized ModelProto suffix `graph { node…, output… }` for a plan. */
export function buildTapSuffix(plan: TapPlan): Uint8Array {
  const nodes: Writer[] = [];
  const states: string[] = plan.sources.map((s) => {
    if (s.tensor) return s.tensor;
    const out = `${P}residual_${s.state}`;
    nodes.push(nodeMsg('Add', `${P}Add_${s.state}`, s.sum!, [out]));
    return out;
  });
  // index of the last position: shape(state0)[1] - 1, as a 1-D tensor so that Gather keeps the axis
  nodes.push(nodeMsg('Constant', `${P}one`, [], [`${P}one`], [{ name: 'value', tensor: int64Tensor([1], [1]) }]));
  nodes.push(nodeMsg('Shape', `${P}Shape`, [states[0]], [`${P}shape`]));
  nodes.push(nodeMsg('Gather', `${P}SeqLen`, [`${P}shape`, `${P}one`], [`${P}seq_len`], [{ name: 'axis', int: 0 }]));
  nodes.push(nodeMsg('Sub', `${P}LastIndex`, [`${P}seq_len`, `${P}one`], [`${P}last_index`]));
  const gathered = states.map((t, k) => {
    nodes.push(nodeMsg('Gather', `${P}Gather_${k}`, [t, `${P}last_index`], [`${P}last_${k}`], [{ name: 'axis', int: 1 }]));
    nodes.push(nodeMsg('Cast', `${P}Cast_${k}`, [`${P}last_${k}`], [`${P}last_f32_${k}`], [{ name: 'to', int: TENSOR_FLOAT }]));
    return `${P}last_f32_${k}`;
  });
  nodes.push(nodeMsg('Concat', `${P}Concat`, gathered, [`${P}stacked`], [{ name: 'axis', int: 1 }]));
  nodes.push(nodeMsg('Transpose', `${P}Transpose`, [`${P}stacked`], [TAP_OUTPUT], [{ name: 'perm', ints: [1, 0, 2] }]));
  const graph = new Writer();
  for (const n of nodes) graph.message(1, n);
  graph.message(12, outputInfo(TAP_OUTPUT, [plan.numLayers + 1, 'batch_size', plan.hiddenSize ?? 'hidden_size']));
  return new Writer().message(7, graph).finish();
}

export function isTapped(topo: OnnxModelTopology): boolean {
  return [topo.graph, ...topo.appended].some((g) => g.outputs.some((o) => o.name === TAP_OUTPUT));
}

export interface PatchResult {
  bytes: Uint8Array;
  plan?: TapPlan;
  /** True when the bytes already carried the taps and were returned unchanged. */
  alreadyPatched: boolean;
}

/** Appends the tap suffix to ONNX bytes. Idempotent: already-tapped bytes come back unchanged. */
export function patchOnnx(bytes: Uint8Array, opts: TapOptions): PatchResult {
  const topo = readOnnxTopology(bytes);
  if (isTapped(topo)) return { bytes, alreadyPatched: true };
  const plan = detectTaps(topo, opts);
  const suffix = buildTapSuffix(plan);
  const out = new Uint8Array(bytes.length + suffix.length);
  out.set(bytes, 0);
  out.set(suffix, bytes.length);
  return { bytes: out, plan, alreadyPatched: false };
}
