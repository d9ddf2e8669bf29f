#!/usr/bin/env node
// Writes audio/src/fixtures/silero-reference.json: silero's speech probability for each frame of
// a synthesized, noisy line, computed by onnxruntime-web (the reference runtime) from the same
// model file. silero.test.ts checks the TypeScript implementation against it. Run after
// `npm run build` with onnxruntime-web installed somewhere (never a dependency of this package):
//   npm i --no-save --prefix /tmp/ort onnxruntime-web@1.31.1
//   ORT_FROM=/tmp/ort/ node audio/scripts/silero-reference.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addNoise, concat, synthesize } from '../dist/index.js';

// The audio: this recipe, which the fixture records and the test rebuilds from it.
const recipe = { line: 'Could you check whether my order has shipped yet?', voice: 'customer', leadSeconds: 0.6, trailSeconds: 0.8, snrDb: 15, seed: 7, color: 'pink' };

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const from = createRequire(process.env.ORT_FROM ? `${process.env.ORT_FROM}/` : import.meta.url);
const ort = await import(pathToFileURL(from.resolve('onnxruntime-web')).href);
ort.env.wasm.numThreads = 1;
const session = await ort.InferenceSession.create(readFileSync(here('../models/silero_vad_v6.onnx')));
const speech = await synthesize(recipe.line, { voice: recipe.voice });
const pcm = addNoise(concat([recipe.leadSeconds, speech, recipe.trailSeconds], 16000), { snrDb: recipe.snrDb, seed: recipe.seed, color: recipe.color });
let state = new ort.Tensor('float32', new Float32Array(256), [2, 1, 128]);
const sr = new ort.Tensor('int64', BigInt64Array.from([16000n]));
let context = new Float32Array(64);
const probabilities = [];
for (let at = 0; at + 512 <= pcm.samples.length; at += 512) {
  const frame = Float32Array.from(pcm.samples.subarray(at, at + 512), (v) => v / 32768);
  const input = new Float32Array(576);
  input.set(context);
  input.set(frame, 64);
  context = frame.slice(-64);
  const out = await session.run({ input: new ort.Tensor('float32', input, [1, 576]), state, sr });
  state = out.stateN;
  probabilities.push(Number(out.output.data[0].toFixed(6)));
}
const version = ort.env.versions?.web ?? 'unknown';
writeFileSync(here('../src/fixtures/silero-reference.json'), `${JSON.stringify({ recipe, runtime: `onnxruntime-web ${version}, wasm, 1 thread`, probabilities })}\n`);
process.stdout.write(`${probabilities.length} frames written\n`);
