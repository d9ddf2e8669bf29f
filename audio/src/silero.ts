// Silero VAD (v6.2, MIT licence; models/silero_vad_v6.onnx, sha256 1a153a22...) run in
// TypeScript: the 16 kHz branch of its graph, layer for layer, with the weights read from the ONNX
// file. Per 32 ms frame: a short-time Fourier transform as a convolution, four convolution layers,
// one LSTM cell, a sigmoid. onnxruntime-web runs the same graph 3 to 4 times slower in Node (its
// per-call overhead dominates a model this small) and its package is 145 MB.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

/** The packaged model's weights, read on the first call (about 10 ms). */
export function loadSileroWeights(): Promise<SileroWeights> {
  loaded ??= readFile(modelPath()).then((b) => sileroWeights(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** Scratch space of one convolution layer: its unfolded input and its output. */
interface ConvScratch {
  columns: Float32Array;
  out: Float32Array;
  length: number;
}

function scratchFor(conv: Conv, length: number): ConvScratch {
  const outLength = Math.floor((length + 2 - 3) / conv.stride) + 1;
  return { columns: new Float32Array(outLength * conv.in * 3), out: new Float32Array(conv.out * outLength), length: outLength };
}

/**
 * Kernel-3, padding-1 convolution over [in][length] with ReLU, as one matrix product over the
 * unfolded input. Four sums run at once (four positions of one channel, two of two, or one of
 * four): each value read serves several products, and no sum waits on the one before it. Plain
 * single-sum loops ran at half the speed here.
 */
function convRelu(conv: Conv, input: Float32Array, length: number, scratch: ConvScratch): Float32Array {
  const { columns, out } = scratch;
  const outLength = scratch.length;
  const span = conv.in * 3;
  for (let t = 0; t < outLength; t++) {
    for (let i = 0; i < conv.in; i++) {
      for (let k = 0; k < 3; k++) {
        const at = t * conv.stride + k - 1;
        columns[t * span + i * 3 + k] = at >= 0 && at < length ? (input[i * length + at] as number) : 0;
      }
    }
  }
  const { weight, bias } = conv;
  if (outLength === 4) {
    for (let o = 0; o < conv.out; o++) {
      const row = o * span;
      let s0 = bias[o] as number;
      let s1 = s0;
      let s2 = s0;
      let s3 = s0;
      for (let j = 0; j < span; j++) {
        const w = weight[row + j] as number;
        s0 += w * (columns[j] as number);
        s1 += w * (columns[span + j] as number);
        s2 += w * (columns[2 * span + j] as number);
        s3 += w * (columns[3 * span + j] as number);
      }
      out[o * 4] = s0 > 0 ? s0 : 0;
      out[o * 4 + 1] = s1 > 0 ? s1 : 0;
      out[o * 4 + 2] = s2 > 0 ? s2 : 0;
      out[o * 4 + 3] = s3 > 0 ? s3 : 0;
    }
  } else if (outLength === 2) {
    for (let o = 0; o < conv.out; o += 2) {
      const r0 = o * span;
      const r1 = r0 + span;
      let s00 = bias[o] as number;
      let s01 = s00;
      let s10 = bias[o + 1] as number;
      let s11 = s10;
      for (let j = 0; j < span; j++) {
        const w0 = weight[r0 + j] as number;
        const w1 = weight[r1 + j] as number;
        const c0 = columns[j] as number;
        const c1 = columns[span + j] as number;
        s00 += w0 * c0;
        s01 += w0 * c1;
        s10 += w1 * c0;
        s11 += w1 * c1;
      }
      out[o * 2] = s00 > 0 ? s00 : 0;
      out[o * 2 + 1] = s01 > 0 ? s01 : 0;
      out[o * 2 + 2] = s10 > 0 ? s10 : 0;
      out[o * 2 + 3] = s11 > 0 ? s11 : 0;
    }
  } else if (outLength === 1) {
    for (let o = 0; o < conv.out; o += 4) {
      out.set(rows4(weight, o * span, span, columns, bias, o), o);
      for (let r = 0; r < 4; r++) if ((out[o + r] as number) < 0) out[o + r] = 0;
    }
  } else throw new Error(`silero: unexpected layer length ${outLength}`);
  return out;
}

const rowSums = new Float32Array(4);

/** Four consecutive rows of `matrix` (from `start`, each `width` wide) times `vector`, plus their biases. */
function rows4(matrix: Float32Array, start: number, width: number, vector: Float32Array, bias: Float32Array, biasAt: number): Float32Array {
  let s0 = bias[biasAt] as number;
  let s1 = bias[biasAt + 1] as number;
  let s2 = bias[biasAt + 2] as number;
  let s3 = bias[biasAt + 3] as number;
  for (let k = 0; k < width; k++) {
    const v = vector[k] as number;
    s0 += (matrix[start + k] as number) * v;
    s1 += (matrix[start + width + k] as number) * v;
    s2 += (matrix[start + 2 * width + k] as number) * v;
    s3 += (matrix[start + 3 * width + k] as number) * v;
  }
  rowSums[0] = s0;
  rowSums[1] = s1;
  rowSums[2] = s2;
  rowSums[3] = s3;
  return rowSums;
}

/**
 * The model's STFT is a convolution with a periodic Hann window times cos and -sin (checked to
 * 1e-7 when the weights load): a 256-point FFT gives the same magnitudes for a fraction of the work.
 */
class Fft256 {
  private readonly cos = new Float64Array(128);
  private readonly sin = new Float64Array(128);
  private readonly reversed = new Uint16Array(256);
  readonly re = new Float64Array(256);
  readonly im = new Float64Array(256);

  constructor() {
    for (let k = 0; k < 128; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / 256);
      this.sin[k] = Math.sin((2 * Math.PI * k) / 256);
    }
    for (let i = 0; i < 256; i++) {
      let r = 0;
      for (let b = 0; b < 8; b++) r |= ((i >> b) & 1) << (7 - b);
      this.reversed[i] = r;
    }
  }

  /** Transforms `input[offset..offset+256)` times `window` in place into re/im. */
  run(input: Float32Array, offset: number, window: Float32Array): void {
    const { re, im } = this;
    for (let i = 0; i < 256; i++) {
      const j = this.reversed[i] as number;
      re[j] = (input[offset + i] as number) * (window[i] as number);
      im[j] = 0;
    }
    for (let size = 2; size <= 256; size *= 2) {
      const half = size / 2;
      const step = 256 / size;
      for (let start = 0; start < 256; start += size) {
        for (let k = 0; k < half; k++) {
          const c = this.cos[k * step] as number;
          const s = -(this.sin[k * step] as number);
          const a = start + k;
          const b = a + half;
          const tr = (re[b] as number) * c - (im[b] as number) * s;
          const ti = (re[b] as number) * s + (im[b] as number) * c;
          re[b] = (re[a] as number) - tr;
          im[b] = (im[a] as number) - ti;
          re[a] = (re[a] as number) + tr;
          im[a] = (im[a] as number) + ti;
        }
      }
    }
  }
}

/** Whether the STFT weights are the Hann-windowed Fourier basis (row 0 is the window). */
function isFourierBasis(basis: Float32Array): boolean {
  for (let bin = 0; bin < 129; bin++) {
    for (let k = 0; k < 256; k++) {
      const w = basis[k] as number;
      const angle = (2 * Math.PI * bin * k) / 256;
      if (Math.abs((basis[bin * 256 + k] as number) - w * Math.cos(angle)) > 1e-6) return false;
      if (Math.abs((basis[(bin + 129) * 256 + k] as number) + w * Math.sin(angle)) > 1e-6) return false;
    }
  }
  return true;
}

const checkedBases = new WeakMap<SileroWeights, boolean>();
function fourierChecked(w: SileroWeights): boolean {
  let known = checkedBases.get(w);
  if (known === undefined) checkedBases.set(w, (known = isFourierBasis(w.basis)));
  return known;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** One stream's model state: feed 512-sample frames at 16 kHz, get the probability of speech in each. */
export class Silero {
  private readonly context = new Float32Array(CONTEXT);
  private readonly h = new Float32Array(HIDDEN);
  private readonly c = new Float32Array(HIDDEN);
  private readonly padded = new Float32Array(CONTEXT + FRAME + 64);
  private readonly magnitude = new Float32Array(129 * 4);

  private readonly fft: Fft256 | undefined;
  private readonly window: Float32Array;
  private readonly gates = new Float32Array(4 * HIDDEN);
  private readonly xh = new Float32Array(2 * HIDDEN);
  private readonly scratch: ConvScratch[];
  /** The encoder's output for digital silence (the same every time), once computed. */
  private silent: Float32Array | undefined;

  constructor(private readonly w: SileroWeights) {
    this.window = w.basis.slice(0, 256);
    this.fft = fourierChecked(w) ? new Fft256() : undefined;
    let length = 4;
    this.scratch = w.encoder.map((conv) => {
      const scratch = scratchFor(conv, length);
      length = scratch.length;
      return scratch;
    });
  }

  /** The STFT as the model writes it: a convolution with its basis (when it is not the Fourier one). */
  private convolveBasis(x: Float32Array, f: number): void {
    const basis = this.w.basis;
    const offset = f * 128;
    for (let bin = 0; bin < 129; bin++) {
      let re = 0;
      let im = 0;
      const r = bin * 256;
      const m = (bin + 129) * 256;
      for (let k = 0; k < 256; k++) {
        const v = x[offset + k] as number;
        re += (basis[r + k] as number) * v;
        im += (basis[m + k] as number) * v;
      }
      this.magnitude[bin * 4 + f] = Math.sqrt(re * re + im * im);
    }
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
    for (let f = 0; f < 4; f++) {
      if (this.fft) {
        this.fft.run(x, f * 128, this.window);
        for (let bin = 0; bin < 129; bin++) {
          const re = this.fft.re[bin] as number;
          const im = this.fft.im[bin] as number;
          this.magnitude[bin * 4 + f] = Math.sqrt(re * re + im * im);
        }
      } else this.convolveBasis(x, f);
    }
    let data: Float32Array = this.magnitude;
    let length = 4;
    this.w.encoder.forEach((conv, i) => {
      const scratch = this.scratch[i] as ConvScratch;
      data = convRelu(conv, data, length, scratch);
      length = scratch.length;
    });
    if (silent) this.silent = data.slice();
    return this.decode(data);
  }

  /** The LSTM cell (gates in PyTorch's order: input, forget, cell, output) and the output layer. */
  private decode(input: Float32Array): number {
    const { weightLstm, bias } = this.w;
    const gates = this.gates;
    const xh = this.xh;
    xh.set(input, 0);
    xh.set(this.h, HIDDEN);
    // Four gate rows at once: each input value is read once for four products.
    for (let g = 0; g < 4 * HIDDEN; g += 4) gates.set(rows4(weightLstm, g * 2 * HIDDEN, 2 * HIDDEN, xh, bias, g), g);
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
