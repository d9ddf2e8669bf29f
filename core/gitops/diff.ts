// Field-level comparison of a file's configuration with the platform's copy. Only what the file
// says is compared (the platform fills in defaults the file never named); a field the file named
// at the last apply or pull and names no more is a removal.
import { showPath } from './refs.js';
import { isObject } from '../json.js';

/** One field that differs. */
export interface Change {
  /** Dotted path, e.g. `model.temperature` or `members[0].assistantId`. */
  path: string;
  kind: 'add' | 'change' | 'remove';
  from?: unknown;
  to?: unknown;
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Whether the platform's value holds everything the file's value says. */
export function covers(want: unknown, have: unknown): boolean {
  if (absent(want)) return absent(have);
  if (Array.isArray(want)) return Array.isArray(have) && want.length === have.length && want.every((w, i) => covers(w, have[i]));
  if (isObject(want)) return isObject(have) && Object.keys(want).every((k) => covers(want[k], have[k]));
  return want === have;
}

/** Paths of the leaves of a value (arrays are leaves), dotted; sorted. */
export function leafPaths(value: Record<string, unknown>): string[] {
  const out: string[] = [];
  const visit = (node: unknown, at: string[]): void => {
    if (isObject(node) && Object.keys(node).length > 0) {
      for (const k of Object.keys(node)) visit(node[k], [...at, k]);
    } else if (!absent(node)) out.push(at.join('.'));
  };
  visit(value, []);
  return out.sort();
}

function getDotted(value: unknown, path: string): unknown {
  let node = value;
  for (const key of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** The changes that turn `have` (the platform's, in file ids) into `want` (the file's). */
export function diff(want: Record<string, unknown>, have: Record<string, unknown>, managed: readonly string[] = []): Change[] {
  const out: Change[] = [];
  const visit = (w: unknown, h: unknown, at: (string | number)[]): void => {
    if (isObject(w) && isObject(h)) {
      for (const k of Object.keys(w)) visit(w[k], h[k], [...at, k]);
      return;
    }
    // Same length: element by element, so a changed prompt shows as `model.messages[0].content`.
    if (Array.isArray(w) && Array.isArray(h) && w.length === h.length && w.some((x) => isObject(x))) {
      w.forEach((x, i) => visit(x, h[i], [...at, i]));
      return;
    }
    if (covers(w, h)) return;
    out.push(absent(h) ? { path: showPath(at), kind: 'add', to: w } : { path: showPath(at), kind: 'change', from: h, to: w });
  };
  visit(want, have, []);
  const now = new Set(leafPaths(want));
  for (const path of managed) {
    if (now.has(path) || [...now].some((p) => p.startsWith(`${path}.`))) continue;
    const before = getDotted(have, path);
    if (!absent(before) && !out.some((c) => path.startsWith(`${c.path}.`))) out.push({ path, kind: 'remove', from: before });
  }
  return out;
}

/**
 * The update body for a set of changes: each top-level field that changed, whole, with removed
 * fields set to null (so a merging update removes them too).
 */
export function updateBody(want: Record<string, unknown>, changes: readonly Change[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const top = (path: string): string => path.split(/[.[]/)[0] as string;
  for (const c of changes) {
    const key = top(c.path);
    if (c.kind !== 'remove' || key in want) body[key] = structuredClone(want[key]) ?? null;
    else body[key] = null;
  }
  for (const c of changes) {
    if (c.kind !== 'remove' || !c.path.includes('.')) continue;
    const keys = c.path.split('.');
    let node = body as Record<string, unknown>;
    for (const k of keys.slice(0, -1)) {
      if (!isObject(node[k])) node[k] = {};
      node = node[k] as Record<string, unknown>;
    }
    node[keys[keys.length - 1] as string] = null;
  }
  return body;
}
