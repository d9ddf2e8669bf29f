// The short-time Fourier transform of silero's first layer. The model writes it as a convolution
// with a periodic Hann window times cos and -sin; a 256-point FFT gives the same magnitudes for a
// fraction of the work (the weights are checked to be that basis when they load).

/** A 256-point complex FFT (radix 2) of windowed real input. */
export class Fft256 {
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
export function isFourierBasis(basis: Float32Array): boolean {
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
