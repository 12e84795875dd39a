/**
 * Reads the topology of an ONNX ModelProto: opsets, nodes (name, op type, domain, inputs, outputs), graph inputs and
 * outputs, value_info and the names/shapes of initializers. Weights are skipped by length, never decoded.
 *
 * A protobuf parser merges a repeated embedded message: a ModelProto with a second `graph` field appended is one
 * graph with the nodes and outputs of both. This reader keeps the occurrences apart: `graph` is the first (the
 * original export) and `appended` holds the rest (our tap patch), so detection always runs on the original topology.
 */
import { Reader, ProtobufError, WIRE_LEN, WIRE_VARINT } from './protobuf';

export interface OnnxNode {
  name: string;
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
}

export interface OnnxValueInfo {
  name: string;
  /** TensorProto.DataType (1 = float, 10 = float16, 7 = int64); undefined when the type is absent. */
  elemType?: number;
  /** dim_value as a number, dim_param as a string, undefined for an unknown dimension. */
  dims?: (number | string | undefined)[];
}

export interface OnnxInitializerInfo {
  name: string;
  dims: number[];
  dataType: number;
}

export interface OnnxGraphTopology {
  name: string;
  nodes: OnnxNode[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  valueInfo: OnnxValueInfo[];
  initializers: Map<string, OnnxInitializerInfo>;
}

export interface OnnxModelTopology {
  irVersion: number;
  producer: string;
  /** domain ('' is the default ONNX domain) → opset version */
  opsets: Record<string, number>;
  /** The first graph occurrence: the model as exported. */
  graph: OnnxGraphTopology;
  /** Later graph occurrences, which a protobuf parser merges into the first (an appended patch). */
  appended: OnnxGraphTopology[];
}

export class OnnxFormatError extends Error {}

export const TENSOR_FLOAT = 1;
export const TENSOR_INT64 = 7;
export const TENSOR_FLOAT16 = 10;

function readNode(r: Reader): OnnxNode {
  const node: OnnxNode = { name: '', opType: '', domain: '', inputs: [], outputs: [] };
  while (!r.done()) {
    const [f, w] = r.key();
    if (w === WIRE_LEN && f === 1) node.inputs.push(r.string());
    else if (w === WIRE_LEN && f === 2) node.outputs.push(r.string());
    else if (w === WIRE_LEN && f === 3) node.name = r.string();
    else if (w === WIRE_LEN && f === 4) node.opType = r.string();
    else if (w === WIRE_LEN && f === 7) node.domain = r.string();
    else r.skip(w);
  }
  return node;
}

function readDims(r: Reader, w: number, into: number[]): void {
  if (w === WIRE_VARINT) into.push(r.varint());
  else if (w === WIRE_LEN) {
    const sub = r.sub(r.lenRange());
    while (!sub.done()) into.push(sub.varint());
  } else r.skip(w);
}

function readInitializer(r: Reader): OnnxInitializerInfo {
  const t: OnnxInitializerInfo = { name: '', dims: [], dataType: 0 };
  while (!r.done()) {
    const [f, w] = r.key();
    if (f === 1) readDims(r, w, t.dims);
    else if (f === 2 && w === WIRE_VARINT) t.dataType = r.varint();
    else if (f === 8 && w === WIRE_LEN) t.name = r.string();
    else r.skip(w);
  }
  return t;
}

function readShape(r: Reader): (number | string | undefined)[] {
  const dims: (number | string | undefined)[] = [];
  while (!r.done()) {
    const [f, w] = r.key();
    if (f === 1 && w === WIRE_LEN) {
      const d = r.sub(r.lenRange());
      let v: number | string | undefined;
      while (!d.done()) {
        const [df, dw] = d.key();
        if (df === 1 && dw === WIRE_VARINT) v = d.varint();
        else if (df === 2 && dw === WIRE_LEN) v = d.string();
        else d.skip(dw);
      }
      dims.push(v);
    } else r.skip(w);
  }
  return dims;
}

function readValueInfo(r: Reader): OnnxValueInfo {
  const v: OnnxValueInfo = { name: '' };
  while (!r.done()) {
    const [f, w] = r.key();
    if (f === 1 && w === WIRE_LEN) v.name = r.string();
    else if (f === 2 && w === WIRE_LEN) {
      const type = r.sub(r.lenRange());
      while (!type.done()) {
        const [tf, tw] = type.key();
        if (tf === 1 && tw === WIRE_LEN) {
          const tensor = type.sub(type.lenRange());
          while (!tensor.done()) {
            const [xf, xw] = tensor.key();
            if (xf === 1 && xw === WIRE_VARINT) v.elemType = tensor.varint();
            else if (xf === 2 && xw === WIRE_LEN) v.dims = readShape(tensor.sub(tensor.lenRange()));
            else tensor.skip(xw);
          }
        } else type.skip(tw);
      }
    } else r.skip(w);
  }
  return v;
}

function readGraph(r: Reader): OnnxGraphTopology {
  const g: OnnxGraphTopology = { name: '', nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: new Map() };
  while (!r.done()) {
    const [f, w] = r.key();
    if (w !== WIRE_LEN) {
      r.skip(w);
      continue;
    }
    const range = r.lenRange();
    switch (f) {
      case 1:
        g.nodes.push(readNode(r.sub(range)));
        break;
      case 2:
        g.name = new TextDecoder().decode(r.buf.subarray(range[0], range[1]));
        break;
      case 5: {
        const init = readInitializer(r.sub(range));
        g.initializers.set(init.name, init);
        break;
      }
      case 11:
        g.inputs.push(readValueInfo(r.sub(range)));
        break;
      case 12:
        g.outputs.push(readValueInfo(r.sub(range)));
        break;
      case 13:
        g.valueInfo.push(readValueInfo(r.sub(range)));
        break;
      default:
        break; // sparse initializers, doc strings, quantization annotations: not needed
    }
  }
  return g;
}

/** Parses the topology of ONNX bytes. Throws OnnxFormatError when the bytes are not an ONNX model. */
export function readOnnxTopology(bytes: Uint8Array): OnnxModelTopology {
  const graphs: OnnxGraphTopology[] = [];
  const model: Omit<OnnxModelTopology, 'graph' | 'appended'> = { irVersion: 0, producer: '', opsets: {} };
  try {
    const r = new Reader(bytes);
    while (!r.done()) {
      const [f, w] = r.key();
      if (f === 1 && w === WIRE_VARINT) model.irVersion = r.varint();
      else if (f === 2 && w === WIRE_LEN) model.producer = r.string();
      else if (f === 7 && w === WIRE_LEN) graphs.push(readGraph(r.sub(r.lenRange())));
      else if (f === 8 && w === WIRE_LEN) {
        const o = r.sub(r.lenRange());
        let domain = '';
        let version = 0;
        while (!o.done()) {
          const [of, ow] = o.key();
          if (of === 1 && ow === WIRE_LEN) domain = o.string();
          else if (of === 2 && ow === WIRE_VARINT) version = o.varint();
          else o.skip(ow);
        }
        model.opsets[domain === 'ai.onnx' ? '' : domain] = version;
      } else r.skip(w);
    }
  } catch (e) {
    if (e instanceof ProtobufError) throw new OnnxFormatError(`not a valid ONNX file (${e.message})`);
    throw e;
  }
  if (!graphs.length || model.irVersion === 0) {
    throw new OnnxFormatError(graphs.length ? 'not a valid ONNX file (no ir_version)' : 'not a valid ONNX file (no graph)');
  }
  return { ...model, graph: graphs[0], appended: graphs.slice(1) };
}
