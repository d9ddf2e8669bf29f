// A fast reader for the plain YAML most resource files are written in (what `voice pull` writes):
// block mappings and sequences, one-line scalars (plain, 'single' or "double" quoted), `|` block
// text, `[]` and `{}`, comments. It resolves scalars as the `yaml` package's YAML 1.2 core schema
// does. Anything else (flow collections, anchors, tags, folded text, multi-line plain or quoted
// scalars, duplicate keys, tabs, a document marker...) gives UNSURE, and the caller parses the text
// with `yaml` itself, which also reports every error with its line. Reading 200 files this way
// takes a few milliseconds instead of a few hundred (the `yaml` parser is slow until V8 warms up).

/** The text is outside the plain subset: parse it with the `yaml` package. */
export const UNSURE: unique symbol = Symbol('unsure');

// The core schema's scalars, as the `yaml` package resolves them (yaml/dist/schema/core).
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** `key:` alone, or `key: value` (the value is the rest after one or more spaces). */
const ENTRY = /^([A-Za-z_][\w./-]*):(?: +(.*))?$/;
/** Characters outside the subset anywhere in the text: tabs, CR, other controls, BOM, NEL, LS, PS. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const AWKWARD = /[\x00-\x09\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/;
/** A plain scalar may not start with an indicator (a minus only when a number follows). */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
const BLANK = /^ *$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

class Unsure extends Error {}

function unsure(): never {
  throw new Unsure();
}

function plainScalar(text: string): unknown {
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_OCT.test(text)) return parseInt(text.substring(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (INT_HEX.test(text)) return parseInt(text.substring(2), 16);
  if (FLOAT_NAN.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return parseFloat(text);
  return text;
}

/** What may follow a closing quote: nothing, or spaces and a comment. */
function endsCleanly(rest: string): boolean {
  return rest === '' || /^ +(?:#.*)?$/.test(rest);
}

/** The plain words of a one-line `[a, b, 3]` (no quotes, nesting, comments or empty items). */
function flowSequence(inner: string): unknown[] {
  if (/^ *$/.test(inner)) return [];
  if (/[[\]{}"'#:]/.test(inner)) unsure();
  return inner.split(',').map((part) => {
    const word = part.replace(/^ +| +$/g, '');
    if (word === '' || (INDICATOR.test(word) && !/^-[0-9.]/.test(word))) unsure();
    return plainScalar(word);
  });
}

/** A one-line scalar after `key: ` or `- ` (never empty). */
function inlineScalar(text: string): unknown {
  const first = text[0];
  if (first === '"') {
    let out = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '"') return endsCleanly(text.slice(i + 1)) ? out : unsure();
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[++i] ?? '';
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
        const code = parseInt(text.slice(i + 1, i + 5), 16);
        // Surrogates are left to the full parser.
        if (code >= 0xd800 && code <= 0xdfff) unsure();
        out += String.fromCharCode(code);
        i += 4;
      } else if (e in ESCAPES) out += ESCAPES[e];
      else unsure();
    }
    return unsure();
  }
  if (first === "'") {
    let out = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c !== "'") out += c;
      else if (text[i + 1] === "'") {
        out += "'";
        i++;
      } else return endsCleanly(text.slice(i + 1)) ? out : unsure();
    }
    return unsure();
  }
  const comment = text.indexOf(' #');
  const value = (comment === -1 ? text : text.slice(0, comment)).replace(/ +$/, '');
  if (value === '{}') return {};
  if (value[0] === '[' && value.endsWith(']')) return flowSequence(value.slice(1, -1));
  if (value === '' || (INDICATOR.test(value) && !(first === '-' && /^-[0-9.]/.test(value))) || value.includes(': ') || value.endsWith(':')) unsure();
  return plainScalar(value);
}

interface Line {
  indent: number;
  /** The line without its indentation. */
  text: string;
}

/** Reads the plain subset; UNSURE when the text goes beyond it. */
export function parsePlainYaml(source: string): unknown {
  if (AWKWARD.test(source)) return UNSURE;
  const raw = source.split('\n');
  const lines: (Line | undefined)[] = raw.map((l) => {
    const indent = (/^ */.exec(l) as RegExpExecArray)[0].length;
    return { indent, text: l.slice(indent) };
  });
  // Index of the next line holding content (not blank, not a comment) at or after i.
  const next = (i: number): number => {
    while (i < lines.length && ((lines[i] as Line).text === '' || (lines[i] as Line).text.startsWith('#'))) i++;
    return i;
  };
  let at = next(0);

  // `|` or `|-` text starting on the line after `at`.
  const blockText = (header: string, parent: number): string => {
    if (header !== '|' && header !== '|-') unsure();
    at++;
    const body: string[] = [];
    let indent = -1;
    while (at < lines.length) {
      const l = lines[at] as Line;
      if (l.text !== '') {
        if (indent === -1) indent = l.indent;
        if (l.indent < indent) break;
        if (indent <= parent) unsure();
      }
      body.push(raw[at] as string);
      at++;
    }
    // Trailing blank lines belong to the text only through its chomping.
    if (indent === -1) unsure();
    while (body.length && BLANK.test(body[body.length - 1] as string)) {
      if ((body.pop() as string).length > indent) unsure();
      at--;
    }
    // A line of spaces only is empty unless it has more than the indentation (then they are text).
    const out = body.map((l) => (BLANK.test(l) ? (l.length > indent ? unsure() : '') : l.slice(indent)));
    at = next(at);
    return out.join('\n') + (header === '|' ? '\n' : '');
  };

  // The value after `key:` or `- `: a scalar on the line, or a block below (deeper, or a sequence
  // at the key's own indentation), or null.
  const valueAfter = (rest: string | undefined, indent: number, isKey: boolean): unknown => {
    if (rest !== undefined && rest !== '' && !rest.startsWith('#')) {
      if (rest[0] === '|') return blockText(rest, indent);
      if (rest[0] === '>') unsure();
      at = next(at + 1);
      return inlineScalar(rest);
    }
    at = next(at + 1);
    const l = lines[at];
    if (l && (l.indent > indent || (isKey && l.indent === indent && (l.text === '-' || l.text.startsWith('- '))))) return block(l.indent);
    return null;
  };

  const mapping = (indent: number, first: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    let text = first;
    for (;;) {
      const m = ENTRY.exec(text);
      if (!m) unsure();
      const key = m[1] as string;
      if (key === '__proto__' || Object.prototype.hasOwnProperty.call(out, key) || NULL.test(key) || BOOL.test(key)) unsure();
      out[key] = valueAfter(m[2], indent, true);
      const l = lines[at];
      if (!l || l.indent !== indent || l.text.startsWith('- ') || l.text === '-') return out;
      text = l.text;
    }
  };

  const sequence = (indent: number): unknown[] => {
    const out: unknown[] = [];
    for (;;) {
      const l = lines[at];
      if (!l || l.indent !== indent || !(l.text === '-' || l.text.startsWith('- '))) return out;
      const item = l.text.slice(1);
      const rest = item.replace(/^ +/, '');
      if (rest === '' || rest.startsWith('#')) out.push(valueAfter(undefined, indent, false));
      else if (ENTRY.test(rest)) {
        // `- key: value`: a mapping whose keys line up with this first one.
        const column = indent + 1 + (item.length - rest.length);
        lines[at] = { indent: column, text: rest };
        out.push(mapping(column, rest));
      } else if (rest.startsWith('- ') || rest === '-') unsure();
      else out.push(valueAfter(rest, indent, false));
    }
  };

  const block = (indent: number): unknown => {
    const l = lines[at] as Line;
    return l.text === '-' || l.text.startsWith('- ') ? sequence(indent) : mapping(indent, l.text);
  };

  try {
    if (at >= lines.length) return UNSURE;
    const first = lines[at] as Line;
    if (first.text.startsWith('---') || first.text.startsWith('%')) return UNSURE;
    const value = block(first.indent);
    return at >= lines.length ? value : UNSURE;
  } catch (e) {
    // Nesting too deep for the stack is left to the full parser too.
    if (e instanceof Unsure || e instanceof RangeError) return UNSURE;
    throw e;
  }
}
