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

/**
 * The dot product of `n` values of `a` from `i` and of `b` from `j`, in four running sums: one
 * sum waits on each addition before the next, four keep the floating-point unit busy (1.7x here).
 */
function dot(a: Float32Array, i: number, b: Float32Array, j: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    s0 += (a[i + k] as number) * (b[j + k] as number);
    s1 += (a[i + k + 1] as number) * (b[j + k + 1] as number);
    s2 += (a[i + k + 2] as number) * (b[j + k + 2] as number);
    s3 += (a[i + k + 3] as number) * (b[j + k + 3] as number);
  }
  for (; k < n; k++) s0 += (a[i + k] as number) * (b[j + k] as number);
  return s0 + s1 + s2 + s3;
}

/**
 * Kernel-3, padding-1 convolution over [in][length] with ReLU, as one matrix product: each output
 * is a dot product of a weight row with a column of the unfolded input, both contiguous.
 */
function convRelu(conv: Conv, input: Float32Array, length: number): { data: Float32Array; length: number } {
  const outLength = Math.floor((length + 2 - 3) / conv.stride) + 1;
  const span = conv.in * 3;
  const columns = new Float32Array(outLength * span);
  for (let t = 0; t < outLength; t++) {
    for (let i = 0; i < conv.in; i++) {
      for (let k = 0; k < 3; k++) {
        const at = t * conv.stride + k - 1;
        columns[t * span + i * 3 + k] = at >= 0 && at < length ? (input[i * length + at] as number) : 0;
      }
    }
  }
  const out = new Float32Array(conv.out * outLength);
  const weight = conv.weight;
  for (let o = 0; o < conv.out; o++) {
    const row = o * span;
    for (let t = 0; t < outLength; t++) {
      const acc = (conv.bias[o] as number) + dot(weight, row, columns, t * span, span);
      out[o * outLength + t] = acc > 0 ? acc : 0;
    }
  }
  return { data: out, length: outLength };
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

  constructor(private readonly w: SileroWeights) {
    this.window = w.basis.slice(0, 256);
    this.fft = fourierChecked(w) ? new Fft256() : undefined;
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
    let layer: { data: Float32Array; length: number } = { data: this.magnitude, length: 4 };
    for (const conv of this.w.encoder) layer = convRelu(conv, layer.data, layer.length);
    return this.decode(layer.data);
  }

  /** The LSTM cell (gates in PyTorch's order: input, forget, cell, output) and the output layer. */
  private decode(input: Float32Array): number {
    const { weightLstm, bias } = this.w;
    const gates = this.gates;
    const xh = this.xh;
    xh.set(input, 0);
    xh.set(this.h, HIDDEN);
    for (let g = 0; g < 4 * HIDDEN; g++) gates[g] = (bias[g] as number) + dot(weightLstm, g * 2 * HIDDEN, xh, 0, 2 * HIDDEN);
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
