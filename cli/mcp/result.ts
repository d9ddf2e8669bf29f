// Tool results sized for a model's context: long strings and arrays are shortened with a note
// saying how much was left out, so one answer never floods the conversation.

const MAX_STRING = 600;
const MAX_ITEMS = 25;

/** A copy of a JSON value with long strings cut and long arrays shortened (each cut says so). */
export function compact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length - MAX_STRING} more characters)` : value;
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => compact(v, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more items`] : items;
  }
  if (value && typeof value === 'object') {
    if (depth > 6) return '{…}';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v, depth + 1)]));
  }
  return value;
}

/** One page of a list: `offset`, `limit`, the items, and how many there are in all. */
export function page<T>(items: readonly T[], offset = 0, limit = 40): { offset: number; total: number; items: T[]; next?: number } {
  const slice = items.slice(offset, offset + limit);
  return { offset, total: items.length, items: slice, ...(offset + limit < items.length ? { next: offset + limit } : {}) };
}
