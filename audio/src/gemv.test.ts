// The SIMD kernel computes what a plain loop computes, and its committed bytes are its source's.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Gemv } from './gemv.js';
import { GEMV_WASM } from './gemv-wasm.js';
import { seededRandom } from './noise.js';

const wat2wasm = spawnSync('wat2wasm', ['--version'], { stdio: 'ignore' }).error === undefined;
// CI installs wabt (.ci/run): there a missing wat2wasm fails the check instead of skipping it.
const skipSourceCheck = !wat2wasm && !process.env.CI;

describe('gemv kernel', () => {
  it('multiplies a matrix (columns not a multiple of 4) by a vector and adds the bias, as a plain loop does', () => {
    const random = seededRandom(4);
    const rows = 8;
    const cols = 387;
    const weights = Float32Array.from({ length: rows * cols }, () => random() - 0.5);
    const bias = Float32Array.from({ length: rows }, () => random());
    const x = Float32Array.from({ length: cols }, () => random());
    const gemv = new Gemv(388, rows);
    const m = gemv.place(weights, bias, rows, cols);
    expect(m.cols).toBe(388);
    gemv.input.fill(0);
    gemv.input.set(x);
    gemv.multiply(m);
    for (let r = 0; r < rows; r++) {
      let sum = bias[r] as number;
      for (let c = 0; c < cols; c++) sum += (weights[r * cols + c] as number) * (x[c] as number);
      expect(gemv.output[r]).toBeCloseTo(sum, 4);
    }
    expect(() => gemv.place(weights, bias, 6, cols)).toThrow(/multiple of 4/);
  });

  it.skipIf(skipSourceCheck)(`is gemv.wat compiled${wat2wasm ? '' : ' (skipped: wat2wasm not installed; apt-get install wabt)'}`, () => {
    const bytes = execFileSync('wat2wasm', [fileURLToPath(new URL('./gemv.wat', import.meta.url)), '--output=-']);
    expect(bytes.toString('base64')).toBe(GEMV_WASM);
  });
});
