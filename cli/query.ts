// Query objects from list flags (`--limit`, `--page`, `--sort`, `--created-after`, ...), one flag per
// catalogue query parameter, and `--query k=v` for anything else.
import type { Op } from '#core/catalogue/index';
import { kebab } from '#core/catalogue/index';
import { suggestion } from '#core/schemas/closest';
import { usageError } from './errors.js';
import { splitAssignment } from './body.js';

/** Query parameters with a friendlier flag than their own name. */
export const FRIENDLY: Readonly<Record<string, { flag: string; attr: string; arg: string; help: string }>> = {
  limit: { flag: '--limit', attr: 'limit', arg: '<n>', help: 'at most this many items' },
  page: { flag: '--page', attr: 'page', arg: '<n>', help: 'page number (paginated lists)' },
  sortOrder: { flag: '--sort', attr: 'sort', arg: '<order>', help: 'sort order by creation time: asc or desc' },
  createdAtGt: { flag: '--created-after', attr: 'createdAfter', arg: '<date>', help: 'only items created after this date (ISO 8601)' },
  createdAtLt: { flag: '--created-before', attr: 'createdBefore', arg: '<date>', help: 'only items created before this date (ISO 8601)' },
};

const NUMBERS = new Set(['limit', 'page', 'costLe', 'costGe', 'cost']);
const ARRAYS = new Set(['idAny', 'assistantIdAny', 'customerNumberAny', 'phoneNumberIdAny']);
const DATES = /^(created|updated)At(Gt|Lt|Ge|Le)$/;

/** The flag of a query parameter (`--assistant-id` for `assistantId`). */
export function flagOf(name: string): string {
  return FRIENDLY[name]?.flag ?? `--${kebab(name)}`;
}

/** The parsed-options key of a query parameter's flag (commander camel-cases flags back). */
export function attrOf(name: string): string {
  return FRIENDLY[name]?.attr ?? name;
}

/** Whether a query parameter takes several values (repeat the flag). */
export function isArrayParam(name: string): boolean {
  return ARRAYS.has(name);
}

function convert(name: string, raw: string, flag: string): unknown {
  if (NUMBERS.has(name)) {
    const n = Number(raw);
    const whole = name === 'limit' || name === 'page';
    if (raw.trim() === '' || !Number.isFinite(n) || (whole && (!Number.isInteger(n) || n < 1))) {
      throw usageError(`${flag} expects ${whole ? 'a whole number of at least 1' : 'a number'}, got "${raw}"`);
    }
    return n;
  }
  if (name === 'sortOrder') {
    const v = raw.toUpperCase();
    if (v !== 'ASC' && v !== 'DESC') {
      const near = suggestion(raw.toLowerCase(), ['asc', 'desc']);
      throw usageError(`${flag} expects asc or desc, got "${raw}"${near ? `. Did you mean ${near}?` : ''}`);
    }
    return v;
  }
  if (DATES.test(name) && Number.isNaN(Date.parse(raw))) {
    throw usageError(`${flag} expects a date such as 2025-01-31 or 2025-01-31T12:00:00Z, got "${raw}"`);
  }
  return raw;
}

function add(query: Record<string, unknown>, name: string, value: unknown): void {
  const prev = query[name];
  if (prev === undefined) query[name] = ARRAYS.has(name) && !Array.isArray(value) ? [value] : value;
  else query[name] = [...(Array.isArray(prev) ? prev : [prev]), ...(Array.isArray(value) ? value : [value])];
}

/** Builds the query of an operation from parsed options (flags per parameter and `--query`). */
export function buildQuery(op: Pick<Op, 'query'>, opts: Record<string, unknown>): Record<string, unknown> | undefined {
  const query: Record<string, unknown> = {};
  for (const name of op.query) {
    const value = opts[attrOf(name)];
    if (value === undefined) continue;
    const flag = flagOf(name);
    if (Array.isArray(value)) for (const v of value) add(query, name, convert(name, String(v), flag));
    else add(query, name, convert(name, String(value), flag));
  }
  for (const raw of (opts.query as string[] | undefined) ?? []) {
    const [key, value] = splitAssignment(raw, '--query');
    add(query, key, convert(key, value, `--query ${key}`));
  }
  return Object.keys(query).length ? query : undefined;
}
