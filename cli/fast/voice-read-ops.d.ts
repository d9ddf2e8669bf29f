// The table scripts/read-ops-plugin.js generates from the catalogue at build time.
declare module 'voice:read-ops' {
  import type { ReadOps } from './read-ops.js';

  const ops: ReadOps;
  export default ops;
}
