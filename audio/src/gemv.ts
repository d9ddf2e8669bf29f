// Matrix-vector products for silero's layers in WebAssembly SIMD (gemv.wat): four rows at a time,
// four lanes each. The same products in plain JavaScript loops took ten times as long, which put
// voice activity detection over its CPU budget.
import { GEMV_WASM } from './gemv-wasm.js';

/** A matrix placed in the kernel's memory: `rows` x `cols` (cols padded to a multiple of 4), and its bias. */
export interface Matrix {
  rows: number;
  cols: number;
  weights: number;
  bias: number;
}

let module: WebAssembly.Module | undefined;

/** The kernel's memory and its one function; matrices and scratch are placed in it once. */
export class Gemv {
  private readonly heap: Float32Array;
  private readonly run: (w: number, x: number, b: number, out: number, rows: number, cols: number) => void;
  private used = 0;
  /** Where inputs are written before a product (room for the widest). */
  readonly input: Float32Array;
  /** Where a product's results land. */
  readonly output: Float32Array;
  private readonly inputAt: number;
  private readonly outputAt: number;

  constructor(maxInput: number, maxOutput: number) {
    module ??= new WebAssembly.Module(Buffer.from(GEMV_WASM, 'base64'));
    const instance = new WebAssembly.Instance(module);
    this.heap = new Float32Array((instance.exports.memory as WebAssembly.Memory).buffer);
    this.run = instance.exports.gemv4 as Gemv['run'];
    this.inputAt = this.alloc(maxInput);
    this.outputAt = this.alloc(maxOutput);
    this.input = this.heap.subarray(this.inputAt, this.inputAt + maxInput);
    this.output = this.heap.subarray(this.outputAt, this.outputAt + maxOutput);
  }

  /** Room for `floats` floats, 16-byte aligned; the float index of its start. */
  private alloc(floats: number): number {
    const at = this.used;
    this.used += Math.ceil(floats / 4) * 4;
    if (this.used > this.heap.length) throw new Error('silero kernel: out of memory');
    return at;
  }

  /** Copies a row-major matrix (`rows` x `cols`) and its bias in, each row padded with zeros to a multiple of 4. */
  place(weights: Float32Array, bias: Float32Array, rows: number, cols: number): Matrix {
    if (rows % 4 !== 0) throw new Error(`silero kernel: ${rows} rows is not a multiple of 4`);
    const padded = Math.ceil(cols / 4) * 4;
    const at = this.alloc(rows * padded);
    for (let r = 0; r < rows; r++) this.heap.set(weights.subarray(r * cols, (r + 1) * cols), at + r * padded);
    const biasAt = this.alloc(rows);
    this.heap.set(bias, biasAt);
    return { rows, cols: padded, weights: at, bias: biasAt };
  }

  /** `output[0..rows)` = bias + matrix times `input[0..cols)` (padding columns of the input must be 0). */
  multiply(m: Matrix): void {
    this.run(m.weights * 4, this.inputAt * 4, m.bias * 4, this.outputAt * 4, m.rows, m.cols);
  }
}
