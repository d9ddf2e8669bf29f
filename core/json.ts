// Plain JSON objects: the type every platform object is read as, and the one guard that narrows an
// unknown value to it (arrays and null are not objects here).

/** A plain JSON object (calls, assistants, customers... as the platform sends them). */
export type Json = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `raw` as an object: itself when it is one, parsed when it is the JSON text of one (a tool call's arguments), else `{}`. */
export function objectOf(raw: unknown): Json {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const v: unknown = JSON.parse(raw);
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}
