// Yoga for the Ink script bundle (scripts/build.js maps Ink's `yoga-layout` imports here): the same
// object `yoga-layout` exports, filled in by initYoga() before the first render. `yoga-layout`'s
// own entry awaits the WebAssembly at the top level, which a classic script (the form that can use
// a V8 code cache, see cli/launch/ink-load.ts) cannot do.
import { loadYoga } from 'yoga-layout/load';

type YogaApi = Awaited<ReturnType<typeof loadYoga>>;

const Yoga = {} as YogaApi;
export default Yoga;

let ready: Promise<void> | undefined;

/** Instantiates Yoga's WebAssembly (once). */
export function initYoga(): Promise<void> {
  if (!ready) {
    // Yoga fetches its inlined WebAssembly through fetch() when fetch exists, which drags in
    // Node's whole fetch stack (~20 ms); without it, it decodes the bytes directly.
    const g = globalThis as { fetch?: typeof fetch };
    const saved = g.fetch;
    g.fetch = undefined;
    ready = loadYoga()
      .then((api) => void Object.assign(Yoga, api))
      .finally(() => {
        g.fetch = saved;
      });
  }
  return ready;
}
