// Reads the weight tensors out of an ONNX file (a protobuf): just enough of the format to find
// the constants of the silero model's graph, with no ONNX runtime.

/** A float tensor: its shape and values. */
export interface Tensor {
  dims: number[];
  data: Float32Array;
}

interface Field {
  number: number;
  /** Varint value (wire type 0). */
  value?: bigint;
  /** Byte range of a length-delimited field (wire type 2). */
  start: number;
  end: number;
}

function readFields(bytes: Uint8Array, start: number, end: number): Field[] {
  const fields: Field[] = [];
  let at = start;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = bytes[at++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  };
  while (at < end) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ number, value: varint(), start: at, end: at });
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      fields.push({ number, start: at, end: at + size });
      at += size;
    } else if (wire === 2) {
      const length = Number(varint());
      fields.push({ number, start: at, end: at + length });
      at += length;
    } else throw new Error(`not an ONNX file (protobuf wire type ${wire})`);
  }
  return fields;
}

const text = (bytes: Uint8Array, f: Field): string => new TextDecoder().decode(bytes.subarray(f.start, f.end));

// Field numbers of onnx.proto: ModelProto.graph 7; GraphProto.node 1; NodeProto.output 2,
// op_type 4, attribute 5; AttributeProto.name 1, t 5, g 6; TensorProto.dims 1, data_type 2,
// float_data 4, raw_data 9.
function readTensor(bytes: Uint8Array, f: Field): Tensor | undefined {
  const dims: number[] = [];
  let data: Float32Array | undefined;
  let type = 0;
  for (const x of readFields(bytes, f.start, f.end)) {
    if (x.number === 1 && x.value !== undefined) dims.push(Number(x.value));
    else if (x.number === 1) dims.push(...packedVarints(bytes, x));
    if (x.number === 2) type = Number(x.value);
    if (x.number === 9 || x.number === 4) data = new Float32Array(bytes.slice(x.start, x.end).buffer);
  }
  return type === 1 && data ? { dims, data } : undefined;
}

/** The numbers of a packed repeated varint field. */
function packedVarints(bytes: Uint8Array, f: Field): number[] {
  const out: number[] = [];
  let at = f.start;
  while (at < f.end) {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at++] as number;
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (!(b & 0x80)) break;
    }
    out.push(value);
  }
  return out;
}

function walkGraph(bytes: Uint8Array, graph: Field, found: Map<string, Tensor>): void {
  for (const node of readFields(bytes, graph.start, graph.end)) {
    if (node.number !== 1) continue;
    const parts = readFields(bytes, node.start, node.end);
    const output = parts.find((p) => p.number === 2);
    const op = parts.find((p) => p.number === 4);
    for (const attribute of parts.filter((p) => p.number === 5)) {
      for (const a of readFields(bytes, attribute.start, attribute.end)) {
        if (a.number === 6) walkGraph(bytes, a, found);
        if (a.number === 5 && output && op && text(bytes, op) === 'Constant') {
          const tensor = readTensor(bytes, a);
          if (tensor) found.set(text(bytes, output), tensor);
        }
      }
    }
  }
}

/** Every float constant of the model's graph and its subgraphs, by the name of the node's output. */
export function readConstants(bytes: Uint8Array): Map<string, Tensor> {
  const graph = readFields(bytes, 0, bytes.length).find((f) => f.number === 7);
  if (!graph) throw new Error('not an ONNX model (no graph)');
  const found = new Map<string, Tensor>();
  walkGraph(bytes, graph, found);
  return found;
}
