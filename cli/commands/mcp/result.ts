// Tool results sized for a model's context: long strings and arrays are shortened with a note
// saying how much was left out, so one answer never floods the conversation. An API answer
// (`call_operation`) comes back whole up to a stated size, never cut by its depth.

const MAX_STRING = 600;
const MAX_ITEMS = 25;

/** The most characters of JSON `call_operation` answers with; a larger answer is cut and says so. */
export const MAX_ANSWER_CHARS = 100_000;

/** A copy of a JSON value with long strings cut and long arrays shortened (each cut says so). */
export function compact(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length - MAX_STRING} more characters)` : value;
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => compact(v));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more items`] : items;
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}

/** The most leading items of `items` whose JSON (inside `wrap`) fits `limit` characters. */
function fitting(items: unknown[], wrap: (kept: unknown[]) => unknown, limit: number): number {
  let [low, high] = [0, items.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (JSON.stringify(wrap(items.slice(0, mid))).length <= limit) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * An API answer whole when its JSON fits `limit` characters. Larger, a list (or a page's `results`)
 * keeps the leading items that fit and anything else its leading text; `truncated` says what was
 * left out and how to ask for the rest.
 */
export function sized(value: unknown, limit = MAX_ANSWER_CHARS): { answer: unknown; truncated?: string } {
  const size = JSON.stringify(value ?? null).length;
  if (size <= limit) return { answer: value };
  const over = `the answer is ${size} characters of JSON, over this tool's limit of ${limit}`;
  const page = value && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as { results?: unknown }).results) ? (value as { results: unknown[] }) : undefined;
  const items = Array.isArray(value) ? value : page?.results;
  if (items) {
    const wrap = (kept: unknown[]): unknown => (page ? { ...page, results: kept } : kept);
    const n = fitting(items, wrap, limit);
    return {
      answer: wrap(items.slice(0, n)),
      truncated: `${over}: showing the first ${n} of ${items.length} items; ask for fewer or the next ones with the operation's query (limit, page or createdAtLt)`,
    };
  }
  const text = JSON.stringify(value);
  return { answer: text.slice(0, limit), truncated: `${over}: showing its first ${limit} characters as text` };
}

/** One page of a list: `offset`, `limit`, the items, and how many there are in all. */
export function page<T>(items: readonly T[], offset = 0, limit = 40): { offset: number; total: number; items: T[]; next?: number } {
  const slice = items.slice(offset, offset + limit);
  return { offset, total: items.length, items: slice, ...(offset + limit < items.length ? { next: offset + limit } : {}) };
}
