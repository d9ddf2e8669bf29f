// One place for each fact: the JSON object guard and the HTTP error class are defined once in the
// whole tree (core/json.ts, core/emulator/errors.ts); everything else imports them. A private copy
// drifts (one treats arrays as objects, another does not), so a second definition fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage']);

/** Every TypeScript and JavaScript source under `dir` (dependencies and built output left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name) || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(tsx?|m?js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Where `pattern` defines something, as `file: line`. */
function definitions(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(pattern)].map((m) => `${relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}`);
  });
}

describe('one definition in the tree', () => {
  const files = ['core', 'cli', 'web', 'audio', 'bench', 'scripts', 'docs'].flatMap((d) => sources(join(ROOT, d)));

  it('of the JSON object guard, isObject', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(definitions(files, /\b(?:function\s+isObject\s*\(|(?:const|let|var)\s+isObject\s*=)/g)).toEqual(['core/json.ts:8']);
  });

  it('of HttpError', () => {
    expect(definitions(files, /\bclass\s+HttpError\b/g)).toEqual(['core/emulator/errors.ts:14']);
  });
});
