// The fast reader against the `yaml` package: whenever it answers, the answer must be what `yaml`
// reads from the same text (without errors); files as `voice pull` writes them and the starter
// layout must take the fast path. Checked on written cases, every fixture, rendered random data
// and random YAML-like texts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { render } from './format.js';
import { parsePlainYaml, UNSURE } from './plain-yaml.js';

/** What the full parser reads, or UNSURE when it reports an error. */
function full(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  return doc.errors.length ? UNSURE : doc.toJS({ maxAliasCount: 100 });
}

/** Fails when the fast reader answers something else than the full parser. */
function agrees(text: string): boolean {
  const fast = parsePlainYaml(text);
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
  '', 'a', 'Hello, how can I help?', 'yes', 'no', 'on', 'off', 'y', 'true', 'False', 'TRUE', 'null', 'Null', '~', 'NULL',
  '0', '-0', '+1', '007', '0o17', '0o8', '0x1F', '0xG', '1.5', '.5', '-.5', '1.', '1e3', '1E-3', '-1.5e+3', '.inf', '-.Inf', '.nan', '.NaN', 'nan',
  '12345678901234567890', '1_000', '0b101', '1:30', '12:30:00', '2024-01-01', 'a: b', 'a:b', 'a #b', 'a#b', '#a', '- a', '-a', '-1a', '--',
  ':a', '?a', '? a', '[a]', '{a}', 'a, b', '&a', '*a', '!a', '|', '>', '%a', '@a', '`a', "'a'", '"a"', "it's", 'say "hi"', 'a\\b', 'é ü 中文 🙂',
  '\u00a0a', 'a\u00a0', ' a', 'a ', 'multi\nline', 'multi\nline\n', '\nlead', 'trail\n\n', 'a\n  b', '  indented\nlines', 'tab\there', '...', '---',
  'x-api-key', 'https://shop.example/orders?a=1#frag', 'C:\\path', '\\u0041', '$var', '{{ template }}', 'gpt-4o-mini', 'a'.repeat(200),
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

const PIECES = ['[', ']', ',', ', ', '[a, b]', 'a', 'b', ':', ': ', ' ', '  ', '- ', '-', '#', ' #', '"', "'", '|', '|-', '>', '\n', '\n  ', '\n    ', '\n- ', '[]', '{}', '1', '.5', 'null', 'yes', '\\', '\\n', 'é', '---', '&', '*', '!'];

describe('parsePlainYaml', () => {
  it('reads what `voice pull` writes, and the starter layout, the same as the yaml package', () => {
    const bench = { name: 'Bench assistant 1', firstMessage: 'Hello, how can I help?', model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are helpful.' }] }, voice: { provider: 'vapi', voiceId: 'Elliot' } };
    expect(agrees(render(bench, 'yml'))).toBe(true);
    const prompt = { name: 'P', model: { messages: [{ role: 'system', content: '# Job\n\n  indented\n- list\n\ntrailing spaces   \nend' }], temperature: 0.3, toolIds: ['a', 'b'] }, endCallPhrases: [], metadata: {} };
    expect(agrees(render(prompt, 'yml'))).toBe(true);
    let fast = 0;
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ya?ml|md)$/.test(name) && !(name === 'README.md')) {
          const text = readFileSync(path, 'utf8');
          const yaml = name.endsWith('.md') ? (/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '') : text;
          if (agrees(yaml)) fast++;
        }
      }
    };
    walk(join(import.meta.dirname, '../../fixtures/gitops/starter'));
    expect(fast).toBe(10);
  });

  it('answers like the yaml package on written cases, and leaves the rest to it', () => {
    const same = [
      'a: 1\nb:\n  - x\n  - y: 2\n    z: [] # none\n',
      'a:\n- x\n- y\nb: 0x1F\n',
      '# head\n\na: "q \\" \\u00e9 \\n" # c\nb: \'it\'\'s\'\nc:\n',
      '- a: |\n    line 1\n\n    line 2\n  b: |-\n    kept\n- |\n  x\n',
      'items:\n  -\n    a: 1\n  - \n  - b\n',
      'k: -1\nl: -.5\nm: +.5e3\nn: ~\no: a#b\np: ...\n',
      '  a: 1\n  b: 2\n',
      'a: |\n  # not a comment\n    deeper\n\n\nb: 1',
      'a:\n  b:\n    c: d\ne: f',
      'enum: [booked, moved , -1, .5, null, a b]  # c\nb: [ ]\n',
    ];
    for (const text of same) expect(agrees(text), text).toBe(true);
    const left = [
      '', 'a: b: c\n', 'a: 1\na: 2\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: {b: 1}\n', 'a: [x, "q"]\n', 'a: [x, y,]\n', 'a: [x, [y]]\n', 'a: >\n  folded\n', 'a: |2\n   x\n',
      'a: "multi\n  line"\n', 'a: multi\n  line\n', '---\na: 1\n', 'a: 1\n...\n', '? a\n: 1\n', 'a:\tb\n', 'a: b\r\n', '\ufeffa: 1\n', '"a": 1\n',
      'a: - b\n', '- - a\n', 'null: 1\n', '__proto__: 1\n', 'a: 1\n - b\n', 'a:\n  b: 1\n c: 2\n', 'a: |\n\n   \n  x\n', 'just text\n', 'a: "\\x41"\n',
      'a: @b\n', 'a: `b`\n', 'a:b\n', 'a : 1\n', '1: a\n',
    ];
    for (const text of left) expect(parsePlainYaml(text), text).toBe(UNSURE);
    const nested = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(agrees(nested(50))).toBe(true);
    expect(parsePlainYaml(nested(20000))).toBe(UNSURE);
  });

  it('answers like the yaml package on random data written by render() and by yaml itself', () => {
    const next = random(18);
    let fast = 0;
    for (let i = 0; i < 800; i++) {
      const data: Record<string, unknown> = {};
      for (let k = 1 + Math.floor(next() * 5); k > 0; k--) data[`${['name', 'model', 'voice', 'x-key', 'a.b'][k % 5]}${i % 7}`] = randomValue(next, 0);
      const texts = [render(data, 'yml'), stringify(data), stringify(data, { lineWidth: 0, indentSeq: false }), stringify(data, { defaultStringType: 'QUOTE_SINGLE' })];
      for (const text of texts) if (agrees(text)) fast++;
    }
    expect(fast).toBeGreaterThan(1000);
  });

  it('answers like the yaml package on random lines of mappings, sequences, block text and comments', () => {
    const next = random(5);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const values = ['a', 'b c', '1', '-1', '0o7', '.5', 'null', '~', '', 'yes', '"q"', "'s'", '"a\\"b"', '[]', '{}', '[a, 1]', 'x # c', '#c', '|', '|-', '>', 'a:b', 'a: b', '- a', '"', '...', '1:2'];
    const keys = ['a', 'b', 'c', 'a', 'x-y', 'k.l', 'null', '1', '"q"', '? a'];
    let fast = 0;
    for (let i = 0; i < 20000; i++) {
      const lines: string[] = [];
      for (let k = 1 + Math.floor(next() * 8); k > 0; k--) {
        const indent = ' '.repeat(pick([0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 5, 6]));
        const r = next();
        if (r < 0.35) lines.push(`${indent}${pick(keys)}:${next() < 0.2 ? '' : ` ${pick(values)}`}`);
        else if (r < 0.55) lines.push(`${indent}-${next() < 0.15 ? '' : pick([' ', ' ', '  ']) + pick(values)}`);
        else if (r < 0.7) lines.push(`${indent}- ${pick(keys)}:${next() < 0.3 ? '' : ` ${pick(values)}`}`);
        else if (r < 0.8) lines.push(`${indent}${pick(['text', 'more text', '#x', '  y', ''])}`);
        else if (r < 0.88) lines.push(indent);
        else if (r < 0.93) lines.push(`${indent}# comment`);
        else lines.push(`${indent}${pick(keys)}: ${pick(['|', '|-'])}`);
      }
      if (agrees(lines.join('\n') + (next() < 0.7 ? '\n' : ''))) fast++;
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
