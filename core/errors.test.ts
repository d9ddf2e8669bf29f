// Every error class core exports extends VoiceError, so `e instanceof VoiceError` tells a program
// "core threw this" in one check. The faces are read from core/package.json, so a new face or a
// new error class is checked without this file changing. No source throws a plain Error either:
// what core itself throws is always a VoiceError.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { VoiceError } from './errors.js';

const CORE = import.meta.dirname;

/** The source module of every `exports` entry of core/package.json. */
function faces(): string[] {
  const pkg = JSON.parse(readFileSync(join(CORE, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const out = new Set<string>();
  for (const target of Object.values(pkg.exports)) {
    const source = typeof target === 'string' ? target : (target as Record<string, unknown>)['voice-source'];
    if (typeof source === 'string' && /\.tsx?$/.test(source)) out.add(source);
  }
  return [...out];
}

/** Every exported class of `mod` whose instances are Errors, by name. */
function errorClasses(mod: Record<string, unknown>): Map<string, new (...args: never[]) => unknown> {
  const out = new Map<string, new (...args: never[]) => unknown>();
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value === 'function' && value.prototype instanceof Error) out.set(name, value as new (...args: never[]) => unknown);
  }
  return out;
}

/** Every source file of core (tests and built output left out). */
function sources(dir = CORE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Each throw or rejection with a plain built-in error in `text`, as `line: code`. */
function plainThrows(text: string): string[] {
  const plain = /\b(?:throw\s+(?:new\s+)?|reject\(\s*new\s+)(?:Error|TypeError|RangeError)\(/g;
  return [...text.matchAll(plain)].map((m) => `${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
}

describe('VoiceError, the root of every error core throws', () => {
  it('is the base of every error class exported from every face of core/package.json', async () => {
    const found: string[] = [];
    const strays: string[] = [];
    for (const face of faces()) {
      const mod = (await import(join(CORE, face))) as Record<string, unknown>;
      for (const [name, cls] of errorClasses(mod)) {
        found.push(`${face}: ${name}`);
        if (!(cls.prototype instanceof VoiceError)) strays.push(`${face}: ${name}`);
      }
    }
    expect(strays).toEqual([]);
    // The walk judged something: the client's, the web call's and the emulator's errors at least.
    expect(found.length).toBeGreaterThan(15);
    for (const name of ['ApiError', 'WebCallCreationError', 'ScenarioError']) expect(found.some((f) => f.endsWith(`: ${name}`))).toBe(true);
  }, 120_000);

  it('is the only class in core that extends a built-in error directly', () => {
    const direct = /\bclass\s+(\w+)\s+extends\s+(Error|TypeError|RangeError|SyntaxError|ReferenceError|AggregateError|DOMException)\b/g;
    const strays = sources().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(direct)].map((m) => `${relative(CORE, file)}: ${m[1]}`));
    expect(strays).toEqual(['errors.ts: VoiceError']);
  });

  it('is what core throws: no source throws or rejects with a plain Error, TypeError or RangeError', () => {
    // Test support (`*.test-support.ts`) runs only under core's own tests: what it throws reaches no user.
    const shipped = sources().filter((file) => !file.endsWith('.test-support.ts'));
    const strays = shipped.flatMap((file) => plainThrows(readFileSync(file, 'utf8')).map((hit) => `${relative(CORE, file)}:${hit}`));
    expect(strays).toEqual([]);
    expect(shipped.length).toBeGreaterThan(100);
    // The scan finds what it looks for, and lets core's own errors be.
    const sample = "throw new Error('a');\nreturn Promise.reject(new TypeError('b'));\nthrow RangeError('c');\nthrow new VoiceError('d');\nreject(new ConnectionError('e'));";
    expect(plainThrows(sample)).toEqual(['1: throw new Error(', '2: reject(new TypeError(', '3: throw RangeError(']);
  });

  it('matches an error from a second copy of core (separately bundled faces) and nothing else', async () => {
    vi.resetModules();
    const copy = await import('./errors.js');
    expect(copy.VoiceError).not.toBe(VoiceError);
    class Mine extends copy.VoiceError {}
    expect(new copy.VoiceError('x')).toBeInstanceOf(VoiceError);
    expect(new Mine('x')).toBeInstanceOf(VoiceError);
    expect(new VoiceError('x')).not.toBeInstanceOf(Mine);
    expect(new Error('x')).not.toBeInstanceOf(VoiceError);
    expect(null).not.toBeInstanceOf(VoiceError);
    expect(Object.assign(new Error('x'), { name: 'VoiceError' })).not.toBeInstanceOf(VoiceError);
  });
});
