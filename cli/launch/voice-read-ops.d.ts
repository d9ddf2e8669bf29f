// The table cli/launch/build-lane.js generates from the catalogue at build time (parsed on first call).
declare module 'voice:read-ops' {
  import type { ReadOps } from './read-ops.js';

  const ops: () => ReadOps;
  export default ops;
}
