// The platform's PATCH semantics: nested objects merge, everything else is replaced.
import { isObject } from '../../json.js';

/** Merges `patch` into `target` in place: nested objects merge, everything else is replaced. */
export function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const key in patch) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const value = patch[key];
    const prev = target[key];
    if (isObject(value) && isObject(prev)) {
      const copy = { ...prev };
      deepMerge(copy, value);
      target[key] = copy;
    } else {
      target[key] = value;
    }
  }
}
