// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// The table cli/launch/build-lane.js generates from the catalogue at build time (parsed on first call).
declare module 'voice:read-ops' {
  import type { ReadOps } from './read-ops.js';

  const ops: () => ReadOps;
  export default ops;
}
