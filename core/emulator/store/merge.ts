// The platform's PATCH semantics: nested objects merge, everything else is replaced.

/** Whether a value is a plain object (not null, not an array). */
export function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Merges `patch` into `target` in place: nested objects merge, everything else is replaced. */
export function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const key in patch) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const value = patch[key];
    const prev = target[key];
    if (isPlain(value) && isPlain(prev)) {
      const copy = { ...prev };
      deepMerge(copy, value);
      target[key] = copy;
    } else {
      target[key] = value;
    }
  }
}
