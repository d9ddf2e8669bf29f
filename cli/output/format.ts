// Turns API data into rows and cells, shared by the plain (piped) and the Ink (TTY) renderers.
import type { TtyView } from '../ui/render.js';
import { columnsFor, fieldValue, headerOf } from './columns.js';

/** What a renderer draws: a table, a key/value view, or lines of text. */
export type View = { kind: 'table'; headers: string[]; fields: string[]; rows: unknown[][] } | { kind: 'object'; entries: [string, unknown][] } | { kind: 'text'; text: string };

/** The items of a list result: an array, or the `results` of a page. */
export function itemsOf(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)) {
    return (data as { results: unknown[] }).results;
  }
  return undefined;
}

/** Decides how a result is shown: lists as tables (of `columns` when given), objects as key/value, the rest as text. */
export function viewOf(data: unknown, resource: readonly string[], columns?: readonly string[]): View {
  const items = itemsOf(data);
  if (items) {
    if (items.every((x) => x === null || typeof x !== 'object')) {
      return { kind: 'text', text: items.map((x) => plainCell(x)).join('\n') };
    }
    const fields = columns?.length ? [...columns] : columnsFor(resource, items);
    const rows = items.map((item) => fields.map((f) => (item && typeof item === 'object' ? fieldValue(item as Record<string, unknown>, f) : item)));
    return { kind: 'table', headers: fields.map(headerOf), fields, rows };
  }
  if (data !== null && typeof data === 'object') return { kind: 'object', entries: Object.entries(data) };
  if (data === undefined) return { kind: 'text', text: '' };
  return { kind: 'text', text: typeof data === 'string' ? data : JSON.stringify(data) };
}

/** A cell for piped output: complete, on one line, tabs and newlines turned into spaces. */
export function plainCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** The whole view as tab-separated text (no header, no colour, no truncation). */
export function plainText(view: View): string {
  if (view.kind === 'text') return view.text === '' ? '' : `${view.text.replace(/\n?$/, '\n')}`;
  if (view.kind === 'object') return view.entries.map(([k, v]) => `${k}\t${plainCell(v)}\n`).join('');
  return view.rows.map((row) => `${row.map(plainCell).join('\t')}\n`).join('');
}

/**
 * The time relative dates are shown against: now, or the instant `VOICE_NOW` pins (an ISO date or
 * epoch milliseconds), so two runs of the same command draw the same table (tests, screenshots).
 */
export function displayNow(env: NodeJS.ProcessEnv = process.env): number {
  const pinned = env.VOICE_NOW;
  if (!pinned) return Date.now();
  const at = /^\d+$/.test(pinned) ? Number(pinned) : Date.parse(pinned);
  return Number.isNaN(at) ? Date.now() : at;
}

/** A relative time for people (`5 minutes ago`), or the input when it is not a date. */
export function relativeTime(value: unknown, now = displayNow()): string {
  if (typeof value !== 'string') return plainCell(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  const s = Math.round((now - at) / 1000);
  const future = s < 0;
  const a = Math.abs(s);
  const [n, unit] =
    a < 60
      ? [a, 'second']
      : a < 3600
        ? [Math.floor(a / 60), 'minute']
        : a < 86400
          ? [Math.floor(a / 3600), 'hour']
          : a < 86400 * 30
            ? [Math.floor(a / 86400), 'day']
            : a < 86400 * 365
              ? [Math.floor(a / (86400 * 30)), 'month']
              : [Math.floor(a / (86400 * 365)), 'year'];
  if (unit === 'second' && n < 10) return 'just now';
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${text}` : `${text} ago`;
}

/** A cell for people on a terminal: dates relative, costs in dollars, objects compact. */
export function ttyCell(field: string, value: unknown, now?: number): string {
  if (field === 'createdAt' || field === 'updatedAt') return relativeTime(value, now);
  if (field === 'cost' && typeof value === 'number') return `$${value.toFixed(2)}`;
  if (Array.isArray(value) && field === 'members') return String(value.length);
  return plainCell(value);
}

/** A table or object view with every cell turned into terminal text (dates relative, costs in $). */
export function ttyView(view: Exclude<View, { kind: 'text' }>, now = displayNow()): TtyView {
  if (view.kind === 'table') {
    return { kind: 'table', headers: view.headers, rows: view.rows.map((row) => row.map((v, i) => ttyCell(view.fields[i] as string, v, now))), idColumn: view.fields.indexOf('id') };
  }
  const entries = view.entries.map(([k, v]): [string, string] => [k, typeof v === 'string' && /At$/.test(k) && !Number.isNaN(Date.parse(v)) ? `${v} (${relativeTime(v, now)})` : ttyCell(k, v, now)]);
  return { kind: 'object', entries };
}
