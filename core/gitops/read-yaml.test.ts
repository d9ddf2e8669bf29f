// js-yaml (through readYaml) against the `yaml` package: whenever readYaml answers, the answer
// must be what `yaml` reads from the same text (without errors), and every text `yaml` rejects must
// go to `yaml` (its messages carry the line and column). Files as `voice pull` writes them and the
// starter layout must take the fast path. Checked on written cases, every fixture, rendered random
// data and random YAML-like lines; the random texts found every check read-yaml.ts makes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { render } from './format.js';
import { readYaml, SCHEMA, UNSURE } from './read-yaml.js';

/** What the full parser reads, or UNSURE when it reports an error. */
function full(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  return doc.errors.length ? UNSURE : doc.toJS({ maxAliasCount: 100 });
}

/** Fails when readYaml answers something else than the full parser; true when it answered. */
function agrees(text: string): boolean {
  const fast = readYaml(text);
  if (fast === UNSURE) return false;
  expect(full(text), JSON.stringify(text)).not.toBe(UNSURE);
  expect(fast, JSON.stringify(text)).toStrictEqual(full(text));
  return true;
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS = [
  '',
  'a',
  'Hello, how can I help?',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'true',
  'False',
  'TRUE',
  'null',
  'Null',
  '~',
  'NULL',
  '0',
  '-0',
  '+1',
  '007',
  '0o17',
  '0o8',
  '0x1F',
  '0xG',
  '1.5',
  '.5',
  '-.5',
  '1.',
  '1e3',
  '1E-3',
  '-1.5e+3',
  '.inf',
  '-.Inf',
  '.nan',
  '.NaN',
  'nan',
  '12345678901234567890',
  '1_000',
  '0b101',
  '1:30',
  '12:30:00',
  '2024-01-01',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '#a',
  '- a',
  '-a',
  '-1a',
  '--',
  ':a',
  '?a',
  '? a',
  '[a]',
  '{a}',
  'a, b',
  '&a',
  '*a',
  '!a',
  '|',
  '>',
  '%a',
  '@a',
  '`a',
  "'a'",
  '"a"',
  "it's",
  'say "hi"',
  'a\\b',
  'é ü 中文 🙂',
  '\u00a0a',
  'a\u00a0',
  ' a',
  'a ',
  'multi\nline',
  'multi\nline\n',
  '\nlead',
  'trail\n\n',
  'a\n  b',
  '  indented\nlines',
  'tab\there',
  '...',
  '---',
  'x-api-key',
  'https://shop.example/orders?a=1#frag',
  'C:\\path',
  '\\u0041',
  '$var',
  '{{ template }}',
  'gpt-4o-mini',
  'a'.repeat(200),
];
const KEYS = ['name', 'model', 'provider', 'voiceId', 'x-api-key', 'a.b', 'a/b', '_x', 'null', 'true', 'yes', '1', '-a', 'a b', '__proto__', 'on', 'y', 'e1'];

function randomValue(next: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const r = next();
  if (depth > 3 || r < 0.45) {
    const kind = next();
    if (kind < 0.7) return pick(SCALARS);
    if (kind < 0.8) return Math.round((next() - 0.5) * 1e6) / (next() < 0.5 ? 1 : 1000);
    if (kind < 0.9) return next() < 0.5;
    return null;
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) out[next() < 0.8 ? pick(KEYS.slice(0, 7)) + (next() < 0.3 ? String(i) : '') : pick(KEYS)] = randomValue(next, depth + 1);
  return out;
}

/**
 * Texts js-yaml alone (with readYaml's schema) reads otherwise than yaml, or reads where yaml reports
 * an error: one for each check of read-yaml.ts (anchors and aliases: see their own test).
 */
const JS_YAML_DIFFERS = [
  'a: !\n', // a tag
  '? [a, b]\n: 1\n', // an explicit key
  '%YAML 1.1\n---\na: yes\n', // a directive
  '[a]: 1\n', // a flow collection as a key
  '- -\n- b\n', // an empty sequence item
  'a: |1\n    ', // an indentation indicator
  'b:  |+\n  \n   \n  ', // keep chomping
  '- ""#\n', // a comment right after a quote
  'a: []#\n', // ... or a bracket
  '- x: "\n y"\n', // a quoted scalar over lines
  '- a: "x\\\n y"\n',
  '1:\n    >-\n\t\n', // a tab in an indentation
  "\ufeff- 's'\n", // a byte order mark
  '- 0o7\r  \n', // a carriage return alone
  `${'k'.repeat(1030)}: 1\n`, // a key over 1024 characters
  'a:\n  - [1,\n 2]\n', // a flow collection over lines
  'null: 1\n', // a null key
  '   >\n# c\n', // a root scalar
];

const PIECES = [
  '[',
  ']',
  ',',
  ', ',
  '[a, b]',
  'a',
  'b',
  ':',
  ': ',
  ' ',
  '  ',
  '- ',
  '-',
  '#',
  ' #',
  '"',
  "'",
  '|',
  '|-',
  '>',
  '\n',
  '\n  ',
  '\n    ',
  '\n- ',
  '[]',
  '{}',
  '1',
  '.5',
  'null',
  'yes',
  '\\',
  '\\n',
  'é',
  '---',
  '&',
  '*',
  '!',
];

/** js-yaml alone, with the schema readYaml uses. */
function jsYaml(text: string): unknown {
  try {
    return load(text, { schema: SCHEMA });
  } catch {
    return UNSURE;
  }
}

describe('readYaml', () => {
  it('reads what `voice pull` writes, and every fixture, the same as the yaml package', () => {
    const bench = {
      name: 'Bench assistant 1',
      firstMessage: 'Hello, how can I help?',
      model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are helpful.' }] },
      voice: { provider: 'vapi', voiceId: 'Elliot' },
    };
    expect(agrees(render(bench, 'yml'))).toBe(true);
    const prompt = {
      name: 'P',
      model: { messages: [{ role: 'system', content: '# Job\n\n  indented\n- list\n* item\nQ & A\n\ntrailing spaces   \nend' }], temperature: 0.3, toolIds: ['a', 'b'] },
      endCallPhrases: [],
      metadata: {},
    };
    expect(agrees(render(prompt, 'yml'))).toBe(true);
    let fast = 0;
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ya?ml|md)$/.test(name) && !(name === 'README.md')) {
          const text = readFileSync(path, 'utf8');
          const yaml = name.endsWith('.md') ? (/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '') : text;
          expect(jsYaml(yaml), path).toStrictEqual(full(yaml));
          if (agrees(yaml)) fast++;
        }
      }
    };
    walk(join(import.meta.dirname, '../../fixtures'));
    expect(fast).toBe(14);
  });

  it('answers like the yaml package on written cases (YAML 1.2 core schema values)', () => {
    const same = [
      'a: 010\nb: 0o17\nc: 0x1F\nd: .inf\ne: -.Inf\nf: .nan\ng: -0\nh: +12\ni: 1e3\nj: -.5e3\nk: +0x1F\nl: -0o7\nm: 0b101\nn: 1_000\no: 0O17\np: 1.\nq: 12345678901234567890\nr: 2024-01-01\ns: 1:30\n',
      'a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: true\ng: True\nh: TRUE\ni: tRue\nj: yes\nk: no\nl: on\nm: off\nn: y\no: False\n',
      'a: "q \\" \\u00e9 \\n \\x41 \\U0001F600 \\/"\nb: \'it\'\'s\'\nc: "010"\nd: \'true\'\ne: ""\nf: \'\'\ng: it\'s "fine"\n',
      '- a: |\n    line 1\n\n    line 2\n  b: |-\n    kept\n- |\n  x\n- >\n  folded\n  text\n\n  para\n- >-\n  f\n',
      '# head\n\na: é ü 中文 🙂 # c\n# whole line\nb: "\\u00e9" # c\nc: x#y\nd: https://shop.example/orders?a=1#frag\n',
      'true: 1\n1: a\n0x1F: b\n__proto__: d\n<<: e\n2.0: f\n',
      'a: 1\nb:\n  - x\n  - y: 2\n    z: [] # none\n',
      'a:\n- x\n- y\nb: 0x1F\n',
      'items:\n  - a: 1\n  - b\n',
      'a: [x, "q", {b: 1}, -1, .5]\nb: {c: [1, 2], d: null}\nc: [ ]\n',
      'a: multi\n  line\nb: x\n',
      '---\na: 1\n...\n',
      'a: 1\r\nb: x\r\n',
      'a: |\n  * item\n  Q & A, 50% off\n',
      'a:\n  b:\n    c: d\ne: f',
    ];
    for (const text of same) expect(agrees(text), text).toBe(true);
    expect(readYaml('a: 010\nb: yes\nc: 0b101\nd: -0\ne: True\nf: ~\ng: 2024-01-01\n')).toStrictEqual({ a: 10, b: 'yes', c: '0b101', d: -0, e: true, f: null, g: '2024-01-01' });
    expect(readYaml('')).toBe(null);
    expect(readYaml('# only a comment\n')).toBe(null);
  });

  it('leaves to the yaml package what js-yaml may read otherwise, or accept where yaml reports an error', () => {
    const nested = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    const left = [
      // js-yaml rejects these too, or they are errors.
      'a: b: c\n',
      'a: 1\na: 2\n',
      '---\na: 1\n---\nb: 2\n',
      'a: 1\n...\nb\n',
      'a: !foo x\n',
      'a: !!binary aGk=\n',
      'a: *x\n',
      ': 1\n',
      '\ta: 1\n',
      'a:\n\t- b\n',
      nested(20000),
      // Features where the two may differ.
      'a: !!str 1\n',
      'a: &x {b: 1}\nc: *x\n',
      '? a\n: 1\n',
      '[a]: 1\n',
      '{a: 1}: 2\n',
      'null: 1\n',
      '~: 1\n',
      '- null: a\n',
      '%YAML 1.1\n---\na: yes\n',
      'just text\n',
      '|\n  text\n',
      // A key js-yaml reads as "null": a null key or a quoted "null" (yaml reads "" and "null").
      '"null": c\n',
      // A quoted scalar over lines, even well indented.
      'b: "one\n  two"\n',
      // Cases where js-yaml alone answers something else than yaml (see the next test).
      ...JS_YAML_DIFFERS,
    ];
    for (const text of left) expect(readYaml(text), text).toBe(UNSURE);
  });

  // Each check of read-yaml.ts has a case here that js-yaml alone reads otherwise than yaml (or reads
  // where yaml reports an error). Should a js-yaml release read one like yaml, its check may go.
  it('has a reason for each check: js-yaml alone reads these otherwise', () => {
    for (const text of JS_YAML_DIFFERS) expect(jsYaml(text), text).not.toStrictEqual(full(text));
    // Aliases: yaml stops a chain of them that would expand past maxAliasCount (a "billion laughs"
    // file); js-yaml reads it (sharing objects), and the data would blow up when sent.
    const laughs = ['a: &a [x, x]', ...Array.from({ length: 12 }, (_, i) => `${'bcdefghijklmn'[i]}: &${'bcdefghijklmn'[i]} [*${'abcdefghijklm'[i]}, *${'abcdefghijklm'[i]}]`)].join('\n');
    expect(jsYaml(laughs)).toBeTypeOf('object');
    expect(() => full(laughs)).toThrow(/alias/i);
    expect(readYaml(laughs)).toBe(UNSURE);
  });

  it('answers like the yaml package on random data written by render() and by yaml itself', () => {
    const next = random(18);
    let fast = 0;
    for (let i = 0; i < 800; i++) {
      const data: Record<string, unknown> = {};
      for (let k = 1 + Math.floor(next() * 5); k > 0; k--) data[`${['name', 'model', 'voice', 'x-key', 'a.b'][k % 5]}${i % 7}`] = randomValue(next, 0);
      const texts = [render(data, 'yml'), stringify(data), stringify(data, { lineWidth: 0, indentSeq: false }), stringify(data, { defaultStringType: 'QUOTE_SINGLE' })];
      // js-yaml itself reads all of them as yaml does; readYaml still leaves some to yaml.
      for (const text of texts) expect(jsYaml(text), text).toStrictEqual(full(text));
      for (const text of texts) if (agrees(text)) fast++;
    }
    expect(fast).toBeGreaterThan(2400);
  });

  it('answers like the yaml package on random lines of mappings, sequences, block text and comments', () => {
    const next = random(5);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const values = [
      'a',
      'b c',
      'a\tb',
      '1',
      '-1',
      '+0x1',
      '-.5',
      '0b1',
      '0o7',
      '.5',
      'null',
      '~',
      '',
      'yes',
      '"q"',
      "'s'",
      '"a\\"b"',
      '"x\\',
      "'multi",
      'end"',
      '[]',
      '{}',
      '[a, 1]',
      '[a,',
      'b]',
      'x # c',
      'x#c',
      '#c',
      '|',
      '|-',
      '|+',
      '>',
      '|2',
      'a:b',
      'a: b',
      '- a',
      '"',
      '...',
      '1:2',
      '&x a',
      '*x',
      '!!str 1',
      '<<',
      'k'.repeat(1030),
      'é🙂',
      'a\rb',
    ];
    const keys = ['a', 'b', 'c', 'a', 'x-y', 'k.l', 'null', '~', '1', '"q"', '? a', '[a]', 'k'.repeat(1030), ''];
    const indents = ['', '', '', ' ', '  ', '  ', '   ', '    ', '\t', ' \t', '\ufeff'];
    let fast = 0;
    for (let i = 0; i < 20000; i++) {
      const lines: string[] = [];
      for (let k = 1 + Math.floor(next() * 8); k > 0; k--) {
        const indent = pick(indents);
        const sep = pick([' ', ' ', ' ', '  ', '\t']);
        const r = next();
        if (r < 0.35) lines.push(`${indent}${pick(keys)}:${next() < 0.2 ? '' : sep + pick(values)}`);
        else if (r < 0.55) lines.push(`${indent}-${next() < 0.15 ? '' : sep + pick(values)}`);
        else if (r < 0.7) lines.push(`${indent}- ${pick(keys)}:${next() < 0.3 ? '' : sep + pick(values)}`);
        else if (r < 0.8) lines.push(`${indent}${pick(['text', 'more text', '#x', '  y', '', ...values])}`);
        else if (r < 0.88) lines.push(pick(['---', '...', '%YAML 1.2', '# c', '', indent]));
        else if (r < 0.93) lines.push(`${indent}# comment`);
        else lines.push(`${indent}${pick(keys)}: ${pick(['|', '|-', '>', '|+'])}`);
      }
      const text = lines.join(pick(['\n', '\n', '\n', '\r\n', '\r'])) + (next() < 0.7 ? '\n' : '');
      if (agrees(text)) fast++;
      else expect(readYaml(text)).toBe(UNSURE);
    }
    expect(fast).toBeGreaterThan(1000);
  });

  it('answers like the yaml package on random YAML-like text', () => {
    const next = random(22);
    let fast = 0;
    for (let i = 0; i < 20000; i++) {
      let text = next() < 0.5 ? 'a: ' : '- ';
      for (let n = Math.floor(next() * 12); n > 0; n--) text += PIECES[Math.floor(next() * PIECES.length)];
      if (agrees(text)) fast++;
    }
    expect(fast).toBeGreaterThan(1000);
  });
});
