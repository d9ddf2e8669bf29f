// Request bodies from the command line: `-f file.json` (or `-f -` for stdin) with `--set a.b=value`
// merged over it, values parsed as JSON when they parse and kept as strings otherwise.
import { readFileSync } from 'node:fs';
import { usageError } from './errors.js';
import { parseJsonText } from './json-text.js';
import { isYamlPath, parseYamlText } from './yaml-text.js';

/** Reads all of stdin as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and parses a JSON (or, for `.yml`/`.yaml` files, YAML) body from a path, or JSON from stdin when the path is `-`. */
export async function readJsonFile(path: string): Promise<unknown> {
  if (path === '-') return parseJsonText(await readStdin(), 'stdin');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw usageError(`Cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (e as Error).message}`);
  }
  return isYamlPath(path) ? parseYamlText(text, path) : parseJsonText(text, path);
}

/** A `--set` value: JSON when it parses (numbers, booleans, arrays, objects), else the string. */
export function parseSetValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Sets `a.b.c` in an object, creating objects on the way (numeric segments index arrays). */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys.some((k) => k === '')) throw usageError(`Bad --set path "${path}": empty segment`);
  if (keys.some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype')) throw usageError(`Bad --set path "${path}"`);
  let node: Record<string, unknown> = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = /^\d+$/.test(keys[i + 1] as string) ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

/** Splits `key=value`; the value may contain further `=` signs. */
export function splitAssignment(raw: string, flag: string): [string, string] {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw usageError(`${flag} expects key=value, got "${raw}"`);
  return [raw.slice(0, eq), raw.slice(eq + 1)];
}

/** Builds a JSON body from an optional file and `--set` assignments (later ones win). */
export async function buildBody(file: string | undefined, sets: readonly string[]): Promise<unknown> {
  let body: unknown = file === undefined ? {} : await readJsonFile(file);
  if (sets.length === 0) return body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw usageError(`--set needs the body to be a JSON object, but ${file === '-' ? 'stdin' : file} holds ${Array.isArray(body) ? 'an array' : typeof body}`);
  }
  body = structuredClone(body);
  for (const raw of sets) {
    const [key, value] = splitAssignment(raw, '--set');
    setPath(body as Record<string, unknown>, key, parseSetValue(value));
  }
  return body;
}
