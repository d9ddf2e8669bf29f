// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// The operations the fast lane may run: plain catalogue reads (GET, JSON answer). The table is
// generated from the catalogue when the CLI is built (cli/launch/build-lane.js imports this
// selection and serialises its result as the module `voice:read-ops`), so the fast lane knows
// the reads without loading the catalogue, and the catalogue stays the one list of endpoints.
import type { Entry, Op } from '#core/catalogue/index';
import { pathParamNames } from '#core/catalogue/index';

/** One read: its resource words, how many path values it takes, and its operation. */
export interface ReadOp {
  resource: string[];
  params: number;
  op: Omit<Op, 'summary' | 'shape'>;
}

/** Reads keyed by their command words (`assistant list`, `eval simulation suite get`). */
export type ReadOps = Record<string, ReadOp>;

/** Option attributes the fast lane parses itself; an operation with a query parameter of the same name is left to the full CLI. */
export const FAST_ATTRS = ['json', 'profile', 'local', 'apiUrl', 'apiKey', 'color'];

/** The catalogue's plain reads, minus any whose words are also a resource group (commander would have to choose). */
export function readOperations(entries: readonly Entry[]): ReadOps {
  const groups = new Set(entries.flatMap((e) => e.resource.map((_, i) => e.resource.slice(0, i + 1).join(' '))));
  const ops: ReadOps = {};
  for (const { resource, action, op } of entries) {
    const words = [...resource, action].join(' ');
    if (op.method !== 'GET' || op.body !== 'none' || op.response === 'binary' || groups.has(words)) continue;
    if (op.query.some((q) => FAST_ATTRS.includes(q))) continue;
    const { summary: _summary, shape: _shape, ...rest } = op;
    ops[words] = { resource: [...resource], params: pathParamNames(op.path).length, op: rest };
  }
  return ops;
}
