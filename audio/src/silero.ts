// Silero VAD (v6.2, MIT licence; models/silero_vad_v6.onnx, sha256 1a153a22...) run without an
// ONNX runtime: the 16 kHz branch of its graph, layer for layer, with the weights read from the
// ONNX file. Per 32 ms frame: a short-time Fourier transform, four convolution layers, one LSTM
// cell, a sigmoid. The products run in a 491-byte WebAssembly SIMD kernel (gemv.ts); the rest in
// TypeScript. onnxruntime-web, which installs 151 MB, ran it 3 to 4 times slower in Node.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Fft256, isFourierBasis } from './fft.js';
import { Gemv, type Matrix } from './gemv.js';
import { readConstants, type Tensor } from './onnx-weights.js';

/** New samples per frame at 16 kHz. */
export const FRAME = 512;
/** Samples of the previous frame prepended to each frame, as silero's own wrapper does. */
const CONTEXT = 64;
const HIDDEN = 128;

/**
 * The model file this package ships (taken from the npm package @ricky0123/vad-web 0.0.31): beside
 * the sources and the build, or through the package's name when a bundler has moved this code.
 */
export function modelPath(): string {
  const beside = fileURLToPath(new URL('../models/silero_vad_v6.onnx', import.meta.url));
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve('voice-agent-audio/models/silero_vad_v6.onnx');
}

interface Conv {
  weight: Float32Array;
  bias: Float32Array;
  out: number;
  in: number;
  stride: number;
}

/** The weights of the 16 kHz branch. */
export interface SileroWeights {
  basis: Float32Array;
  encoder: Conv[];
  /** Each gate row: its input weights then its hidden-state weights (one dot product with [x, h]). */
  weightLstm: Float32Array;
  bias: Float32Array;
  outWeight: Float32Array;
  outBias: number;
}

/** Reads the weights from the ONNX file's bytes. */
export function sileroWeights(bytes: Uint8Array): SileroWeights {
  const constants = readConstants(bytes);
  const get = (key: string): Tensor => {
    const name = [...constants.keys()].find((k) => k.endsWith(`then_branch__Inline_0__${key}`));
    if (!name) throw new Error(`silero model: no ${key} in the 16 kHz branch`);
    return constants.get(name) as Tensor;
  };
  const conv = (i: number, stride: number): Conv => {
    const w = get(`encoder.${i}.reparam_conv.weight`);
    return { weight: w.data, bias: get(`encoder.${i}.reparam_conv.bias`).data, out: w.dims[0] as number, in: w.dims[1] as number, stride };
  };
  const biasIh = get('decoder.rnn.bias_ih').data;
  const biasHh = get('decoder.rnn.bias_hh').data;
  return {
    basis: get('stft.forward_basis_buffer').data,
    encoder: [conv(0, 1), conv(1, 2), conv(2, 2), conv(3, 1)],
    weightLstm: joinRows(get('decoder.rnn.weight_ih').data, get('decoder.rnn.weight_hh').data, HIDDEN),
    bias: biasIh.map((v, i) => v + (biasHh[i] as number)),
    outWeight: get('decoder.decoder.2.weight').data,
    outBias: get('decoder.decoder.2.bias').data[0] as number,
  };
}

/** Rows of `a` and `b` (each `width` wide) side by side. */
function joinRows(a: Float32Array, b: Float32Array, width: number): Float32Array {
  const rows = a.length / width;
  const out = new Float32Array(2 * a.length);
  for (let r = 0; r < rows; r++) {
    out.set(a.subarray(r * width, (r + 1) * width), 2 * r * width);
    out.set(b.subarray(r * width, (r + 1) * width), (2 * r + 1) * width);
  }
  return out;
}

let loaded: Promise<SileroWeights> | undefined;

/** The packaged model's weights, read and placed in the kernel on the first call (tens of ms). */
export function loadSileroWeights(): Promise<SileroWeights> {
  loaded ??= readFile(modelPath()).then((b) => {
    const weights = sileroWeights(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    place(weights);
    return weights;
  });
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** The weights placed in a kernel, shared by every stream (a frame runs start to end without interruption). */
interface Placed {
  gemv: Gemv;
  encoder: Matrix[];
  lstm: Matrix;
  fourier: boolean;
}

const placedFor = new WeakMap<SileroWeights, Placed>();

function place(w: SileroWeights): Placed {
  let placed = placedFor.get(w);
  if (!placed) {
    const gemv = new Gemv(2 * HIDDEN + Math.max(...w.encoder.map((c) => c.in * 3)), 4 * HIDDEN);
    const encoder = w.encoder.map((c) => gemv.place(c.weight, c.bias, c.out, c.in * 3));
    const lstm = gemv.place(w.weightLstm, w.bias, 4 * HIDDEN, 2 * HIDDEN);
    placed = { gemv, encoder, lstm, fourier: isFourierBasis(w.basis) };
    placedFor.set(w, placed);
  }
  return placed;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** One stream's model state: feed 512-sample frames at 16 kHz, get the probability of speech in each. */
export class Silero {
  private readonly context = new Float32Array(CONTEXT);
  private readonly h = new Float32Array(HIDDEN);
  private readonly c = new Float32Array(HIDDEN);
  private readonly padded = new Float32Array(CONTEXT + FRAME + 64);
  private readonly magnitude = new Float32Array(129 * 4);
  private readonly layers: Float32Array[];
  private readonly placed: Placed;
  private readonly fft = new Fft256();
  private readonly window: Float32Array;
  /** The encoder's output for digital silence (the same every time), once computed. */
  private silent: Float32Array | undefined;

  constructor(private readonly w: SileroWeights) {
    this.placed = place(w);
    this.window = w.basis.slice(0, 256);
    let length = 4;
    this.layers = w.encoder.map((conv) => {
      length = Math.floor((length + 2 - 3) / conv.stride) + 1;
      return new Float32Array(conv.out * length);
    });
  }

  /** Forgets the audio before (a new stream). */
  reset(): void {
    this.context.fill(0);
    this.h.fill(0);
    this.c.fill(0);
  }

  /** The probability (0 to 1) that the frame (512 floats in [-1, 1]) holds speech. */
  process(frame: Float32Array): number {
    if (frame.length !== FRAME) throw new Error(`silero takes frames of ${FRAME} samples (got ${frame.length})`);
    const x = this.padded;
    x.set(this.context, 0);
    x.set(frame, CONTEXT);
    this.context.set(frame.subarray(FRAME - CONTEXT));
    // Reflection padding of 64 samples on the right, then 4 windows of 256 samples, hop 128.
    const n = CONTEXT + FRAME;
    for (let i = 0; i < 64; i++) x[n + i] = x[n - 2 - i] as number;
    // Digital silence (a call's quiet side) always encodes the same: only the LSTM has to run.
    let silent = true;
    for (let i = 0; i < x.length && silent; i++) silent = x[i] === 0;
    if (silent && this.silent) return this.decode(this.silent);
    for (let f = 0; f < 4; f++) this.stft(x, f);
    let input: Float32Array = this.magnitude;
    let length = 4;
    this.w.encoder.forEach((conv, i) => {
      const out = this.layers[i] as Float32Array;
      this.conv(conv, this.placed.encoder[i] as Matrix, input, length, out);
      length = out.length / conv.out;
      input = out;
    });
    if (silent) this.silent = input.slice();
    return this.decode(input);
  }

  /** Magnitudes of window `f` into column f of [129][4]. */
  private stft(x: Float32Array, f: number): void {
    const basis = this.w.basis;
    if (this.placed.fourier) {
      this.fft.run(x, f * 128, this.window);
      for (let bin = 0; bin < 129; bin++) {
        const re = this.fft.re[bin] as number;
        const im = this.fft.im[bin] as number;
        this.magnitude[bin * 4 + f] = Math.sqrt(re * re + im * im);
      }
      return;
    }
    // The model's own basis, as a convolution, when it is not the Fourier one.
    for (let bin = 0; bin < 129; bin++) {
      let re = 0;
      let im = 0;
      for (let k = 0; k < 256; k++) {
        re += (basis[bin * 256 + k] as number) * (x[f * 128 + k] as number);
        im += (basis[(bin + 129) * 256 + k] as number) * (x[f * 128 + k] as number);
      }
      this.magnitude[bin * 4 + f] = Math.sqrt(re * re + im * im);
    }
  }

  /** Kernel-3, padding-1 convolution with ReLU over [in][length] into [out][outLength]: one product per position. */
  private conv(conv: Conv, matrix: Matrix, input: Float32Array, length: number, out: Float32Array): void {
    const { input: column, output } = this.placed.gemv;
    const outLength = out.length / conv.out;
    for (let t = 0; t < outLength; t++) {
      column.fill(0, 0, matrix.cols);
      for (let i = 0; i < conv.in; i++) {
        for (let k = 0; k < 3; k++) {
          const at = t * conv.stride + k - 1;
          if (at >= 0 && at < length) column[i * 3 + k] = input[i * length + at] as number;
        }
      }
      this.placed.gemv.multiply(matrix);
      for (let o = 0; o < conv.out; o++) {
        const v = output[o] as number;
        out[o * outLength + t] = v > 0 ? v : 0;
      }
    }
  }

  /** The LSTM cell (gates in PyTorch's order: input, forget, cell, output) and the output layer. */
  private decode(input: Float32Array): number {
    const { gemv, lstm } = this.placed;
    gemv.input.set(input, 0);
    gemv.input.set(this.h, HIDDEN);
    gemv.multiply(lstm);
    const gates = gemv.output;
    let out = this.w.outBias;
    for (let k = 0; k < HIDDEN; k++) {
      const i = sigmoid(gates[k] as number);
      const f = sigmoid(gates[HIDDEN + k] as number);
      const g = Math.tanh(gates[2 * HIDDEN + k] as number);
      const o = sigmoid(gates[3 * HIDDEN + k] as number);
      const c = f * (this.c[k] as number) + i * g;
      const h = o * Math.tanh(c);
      this.c[k] = c;
      this.h[k] = h;
      out += (this.w.outWeight[k] as number) * (h > 0 ? h : 0);
    }
    return sigmoid(out);
  }
}
