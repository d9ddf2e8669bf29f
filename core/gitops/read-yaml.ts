// Budget: `voice apply` of 200 resources <= 0.4x one-by-one SDK creates. Measured gain of reading with
// js-yaml first: 0.56x -> 0.39x (YAML parsing was about 60 ms of main thread for 200 files).
// Re-measured 2026-11-26 on two shared cores (load average 13 to 25), alternating runs: `npm run
// bench -- apply` 0.45x and 0.37x with js-yaml first, 0.76x and 0.61x with `yaml` alone; CPU time
// of `voice apply` of the 200 files (10 runs each) 0.53 s against 0.71 s. `yaml`'s lower layers do
// not close the gap: in a fresh process its Lexer alone (tokens, no tree) took 1.3 to 2.5x what
// js-yaml's whole load of the 200 texts took, its CST Parser 3.5 to 4x, parseDocument + toJS 4 to 6x.
// So the apply budget still needs two parsers; everywhere else the product reads YAML with `yaml`.
// Reads resource files' YAML with js-yaml, which parses 200 files several times faster than the
// `yaml` package does while V8 is still cold, whenever it is sure to read the text as `yaml` reads
// it. Otherwise readYaml() answers UNSURE and the caller parses the text with `yaml`, which also
// reports every error with its line and column: js-yaml's answer is never an error message.
//
// What goes to `yaml` (each check is in read-yaml.test.ts, found by comparing both libraries on
// random texts): anything js-yaml cannot read; a root that is not a mapping or a sequence; a
// collection reached twice (an alias: `yaml` stops aliases that expand past maxAliasCount) or a
// `null` key (js-yaml turns a null key into "null", `yaml` into ""); and texts with a sign of a
// YAML feature where the two differ (see UNLIKE).
// Text `yaml` rejects must still be refused: js-yaml is laxer about indentation, comment spacing
// and tabs, and the checks send every such case the comparison found to `yaml`. The choice made:
// `yaml` runs only when js-yaml fails or a check fires, not on every file to confirm (that would
// cost what js-yaml saves), so a kind of malformed text no check foresees would be read as js-yaml
// reads it; the random comparisons in the test found none left.
import { CORE_SCHEMA, Type, load } from 'js-yaml';

/** The text is not certain to read the same with js-yaml: parse it with the `yaml` package. */
export const UNSURE: unique symbol = Symbol('unsure');

// YAML 1.2's core schema numbers (spec 10.3.2), resolved as the `yaml` package does. js-yaml's own
// also read `+0x1F`, `-0o7` and `0b101` as numbers, `-.5` as text and `-0` as 0.
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** js-yaml's YAML 1.2 core schema (null, bool, int, float; no timestamps) with `yaml`'s numbers. */
export const SCHEMA = CORE_SCHEMA.extend({
  implicit: [
    new Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (s: unknown) => typeof s === 'string' && INT.test(s),
      construct: (s: string) => (s[1] === 'o' ? parseInt(s.slice(2), 8) : s[1] === 'x' ? parseInt(s.slice(2), 16) : parseInt(s, 10)),
    }),
    new Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (s: unknown) => typeof s === 'string' && FLOAT.test(s),
      construct: (s: string) => (/nan$/i.test(s) ? NaN : /inf$/i.test(s) ? (s[0] === '-' ? -Infinity : Infinity) : parseFloat(s)),
    }),
  ],
});

/** Signs of what js-yaml reads otherwise than `yaml` (or accepts where `yaml` reports an error). */
const UNLIKE = new RegExp(
  [
    // Tags, anchors, aliases, explicit `? ` keys.
    String.raw`(?:^|[\s[{,])(?:!|[&*]\S|\?(?:[ \t]|$))`,
    // Directives (`%YAML 1.1` reads yes/no as booleans).
    String.raw`^%`,
    // A flow collection as a key.
    String.raw`[\]}][ \t]*:`,
    // An empty sequence item (js-yaml may put the next, less indented, items in it).
    String.raw`(?:^|[ \t])-[ \t]*(?:#.*)?$`,
    // A block scalar's indentation indicator, or its keep (`+`) chomping.
    String.raw`[|>](?:[1-9+]|-[1-9])`,
    // A comment right after a closing quote or bracket.
    String.raw`[^\s[{,:]["']#|[\]}]#`,
    // A quoted scalar that goes on over lines.
    String.raw`(?:^[ \t]*|[:?-][ \t]+|[[{,][ \t]*)(?:'(?:[^'\n]|'')*|"(?:[^"\\\n]|\\.)*\\?)$`,
    // A tab in an indentation, a byte order mark, a carriage return that does not end a line.
    String.raw`^[ \t]*\t|\ufeff|\r(?!\n)`,
    // A line long enough to hold a key over 1024 characters.
    String.raw`^[^\n]{1024}[^\n]*:`,
  ].join('|'),
  'm',
);

/** A flow collection (`[`, `{`) not closed on its line: it goes on over lines. */
function multiLineFlow(text: string): boolean {
  if (!/[[{]/.test(text)) return false;
  for (const line of text.split('\n')) {
    let depth = 0;
    for (const c of line) {
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    if (depth !== 0) return true;
  }
  return false;
}

/** A collection reached twice, or a `null` key. */
function doubtful(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (seen.has(value)) return true;
  seen.add(value);
  if (Array.isArray(value)) return value.some((v) => doubtful(v, seen));
  return Object.entries(value).some(([k, v]) => k === 'null' || doubtful(v, seen));
}

/** What `yaml` reads from the text (a mapping, a sequence or null), or UNSURE. */
export function readYaml(text: string): unknown {
  if (UNLIKE.test(text) || multiLineFlow(text)) return UNSURE;
  try {
    const value = load(text, { schema: SCHEMA });
    if (value === undefined || value === null) return null;
    return typeof value !== 'object' || doubtful(value, new Set()) ? UNSURE : value;
  } catch {
    // Errors, and nesting too deep for the stack, are left to `yaml`.
    return UNSURE;
  }
}
