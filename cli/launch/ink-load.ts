// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain of the Ink
// script's code cache: about 125 M instructions a start; with the Unicode stand-ins 3.04x -> 2.10x.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// Ink table 990 M, 985 M instructions (1.95x) from the Ink script in the fast lane. Without the
// script only the full CLI draws: 1,285 M, 1,274 M (2.53x, over the 2.5x budget) from the ES module
// views, 1,174 M, 1,156 M from the script. Kept.
// Loads the Ink views (cli/ui/render.tsx). In the built CLI they are also a classic script,
// chunks/ink-script.js, with a V8 code cache made at build time (cli/launch/build-ink-script.js, run by
// cli/launch/code-cache.ts): the 350 KB of Ink, React and Yoga are neither parsed nor compiled again.
// Any failure falls back to the ES module chunk, as when running from source.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runScript } from './code-cache.js';
import type * as Render from '../ui/render.js';
import type * as YogaModule from '../ui/yoga.js';

/** What the views module offers. */
export type Ui = Pick<typeof Render, 'renderView'>;

type InkScript = Ui & Pick<typeof YogaModule, 'initYoga'>;

/**
 * Runs the Ink script `file` (its last line names its code cache, beside it); `cached` says whether
 * a code cache was used. Rejects when the script is missing or fails.
 */
export async function loadScript(file: string): Promise<Ui & { cached: boolean }> {
  const run = await runScript<InkScript>(file, createRequire(file));
  const ink = run.exports;
  await ink.initYoga();
  return {
    cached: run.cached,
    renderView(view, opts) {
      const text = ink.renderView(view, opts);
      // After a render, so the cache holds the functions drawing needed.
      run.save();
      return text;
    },
  };
}

/** The views: from the Ink script when built, else from the ES module. */
export async function loadInk(): Promise<Ui> {
  try {
    return await loadScript(fileURLToPath(new URL('./ink-script.js', import.meta.url)));
  } catch {
    // Not built (running from source), or unreadable: the ES module below draws the same.
  }
  // yoga-layout (inside Ink) fetches its inlined WebAssembly through fetch() when fetch exists,
  // which drags in Node's whole fetch stack (~20 ms); without it, it decodes the bytes directly.
  const g = globalThis as { fetch?: typeof fetch };
  const saved = g.fetch;
  g.fetch = undefined;
  try {
    return await import('../ui/render.js');
  } finally {
    g.fetch = saved;
  }
}
