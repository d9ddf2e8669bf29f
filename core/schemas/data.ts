// The derived schema data (components and operations), loaded once on first use so modules that
// only might need it cost nothing at start. Speed trick (budget: `voice apply` of 200 resources
// <= 0.4x the server SDK; see cli/launch/README.md): the files are read as bytes and each entry is
// parsed the first time it is looked up, since a plan reaches a few dozen of the 863 components;
// compiling them as a module cost every plan and apply about 40 ms of CPU. The bundled CLI finds
// copies in dist/cli/schemas (cli/launch/build-schema-files.js); when the files are missing or laid
// out otherwise, the JSON modules load as before.
import { readFileSync } from 'node:fs';
import type { OperationSchema } from './validate.js';

/** The derived components by name and the operations by `METHOD path-template`. */
export interface SchemaData {
  components: Readonly<Record<string, Record<string, unknown>>>;
  operations: Readonly<Record<string, OperationSchema>>;
}

type Table = Record<string, Record<string, unknown>>;

// core/schemas from the sources, dist/cli/schemas from a chunk (dist/cli/chunks), then from the
// entry (dist/cli): the usual place first, since each miss costs an error with its stack.
const PLACES = ['../schemas/', './schemas/'];
const NEWLINE = 10;
const QUOTE = 34;
const COLON = 58;
const COMMA = 44;
const RETURN = 13;

function readBytes(name: string): Buffer | undefined {
  for (const place of PLACES) {
    try {
      return readFileSync(new URL(`${place}${name}`, import.meta.url));
    } catch {
      // Not here: the next place.
    }
  }
  return undefined;
}

/**
 * The object `bytes` (JSON written one `"name":value` entry a line, as scripts/derive-schemas.js
 * writes it) with each value parsed on first access; undefined when the bytes are laid out otherwise.
 */
export function lazyTable(bytes: Buffer): Table | undefined {
  // Searched in the bytes, not in a decoded copy: a 600 KB string lands in V8's old generation and,
  // with the sliced names keeping it alive, brought on a full collection during the apply.
  if (bytes[0] !== 0x7b || bytes[1] !== NEWLINE) return undefined;
  const spans = new Map<string, [from: number, to: number]>();
  let at = 2;
  for (;;) {
    let end = bytes.indexOf(NEWLINE, at);
    if (end < 0) end = bytes.length;
    let last = end;
    if (bytes[last - 1] === RETURN) last--;
    if (bytes[at] === 0x7d && last === at + 1) return end >= bytes.length - 1 ? tableOf(bytes, spans) : undefined;
    if (bytes[at] !== QUOTE) return undefined;
    const close = bytes.indexOf(QUOTE, at + 1);
    if (close < 0 || close >= last || bytes[close + 1] !== COLON) return undefined;
    const name = bytes.toString('latin1', at + 1, close);
    if (!/^[\x20-\x5b\x5d-\x7e]*$/.test(name)) return undefined;
    if (bytes[last - 1] === COMMA) last--;
    spans.set(name, [close + 2, last]);
    if (end >= bytes.length) return undefined;
    at = end + 1;
  }
}

// A read-only view whose entries are parsed on first access (a getter per entry costs more to set up).
function tableOf(bytes: Buffer, spans: Map<string, [number, number]>): Table {
  const parsed = new Map<string, Record<string, unknown>>();
  const value = (name: string): Record<string, unknown> | undefined => {
    let v = parsed.get(name);
    const span = spans.get(name);
    if (v === undefined && span) parsed.set(name, (v = JSON.parse(bytes.toString('utf8', span[0], span[1])) as Record<string, unknown>));
    return v;
  };
  return new Proxy({} as Table, {
    get: (_, name) => (typeof name === 'string' ? value(name) : undefined),
    has: (_, name) => typeof name === 'string' && spans.has(name),
    ownKeys: () => [...spans.keys()],
    getOwnPropertyDescriptor: (_, name) => (typeof name === 'string' && spans.has(name) ? { get: () => value(name), enumerable: true, configurable: true } : undefined),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

function readTable(name: string): Table | undefined {
  const bytes = readBytes(name);
  return bytes && lazyTable(bytes);
}

let loading: Promise<SchemaData> | undefined;

/** Loads the derived data once; later calls return the same objects. */
export function loadSchemaData(): Promise<SchemaData> {
  loading ??= (async () => {
    const components = readTable('components.json') ?? ((await import('./components.json', { with: { type: 'json' } })).default as unknown as Table);
    const operations = readTable('operations.json') ?? ((await import('./operations.json', { with: { type: 'json' } })).default as unknown as Table);
    return { components, operations: operations as unknown as SchemaData['operations'] };
  })();
  return loading;
}
