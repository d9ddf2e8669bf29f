// The visitor record, its slug rule, and the checks every store and command share.
import { isObject } from '../json.js';
import { VisitorError } from './errors.js';

/** A prospect with a personalised demo page at `/<slug>`. */
export interface Visitor {
  slug: string;
  name: string;
  /** The system prompt the assistant gets for this visitor. */
  system: string;
  /** The opening line the assistant speaks. */
  first_message: string;
  /** Set by the hosted table only. */
  created_at?: string;
  /** Set by the hosted table only. */
  updated_at?: string;
}

/** The editable fields of a visitor. */
export type VisitorFields = Pick<Visitor, 'name' | 'system' | 'first_message'>;

/** A change to one visitor: its slug and the fields to replace. */
export type VisitorPatch = { slug: string } & Partial<VisitorFields>;

/** The editable field names, in display order. */
export const VISITOR_FIELDS = ['name', 'system', 'first_message'] as const;

/** Lowercase letters, digits and hyphens, 1 to 64 characters (the same rule as the hosted table). */
export const SLUG_PATTERN = /^[a-z0-9-]{1,64}$/;

/** Why `slug` is not a valid slug, or undefined when it is. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return 'a slug cannot be empty';
  if (slug.length > 64) return `a slug has at most 64 characters (this one has ${slug.length})`;
  if (!SLUG_PATTERN.test(slug)) return 'a slug uses only lowercase letters, digits and hyphens';
  return undefined;
}

/** Returns `slug` when valid, else throws an `invalid` VisitorError naming it. */
export function checkSlug(slug: string): string {
  const problem = slugProblem(slug);
  if (problem) throw new VisitorError('invalid', `Invalid slug ${JSON.stringify(slug)}: ${problem}.`, 'Example: acme-corp');
  return slug;
}

const TIMESTAMPS = new Set(['created_at', 'updated_at']);

function describe(where: string, index: number | undefined): string {
  return index === undefined ? where : `${where} item ${index + 1}`;
}

/**
 * Checks one visitor-shaped value: a full visitor (`partial` false) or a patch (`partial` true).
 * Timestamps are accepted and dropped, so `list --json` output can be fed back with `-f`.
 */
export function parseVisitor(value: unknown, partial: false, where: string, index?: number): Visitor;
export function parseVisitor(value: unknown, partial: true, where: string, index?: number): VisitorPatch;
export function parseVisitor(value: unknown, partial: boolean, where: string, index?: number): Visitor | VisitorPatch {
  const at = describe(where, index);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VisitorError('invalid', `${at}: expected a visitor object like {"slug": "acme", "name": "Acme"}.`);
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => k !== 'slug' && !TIMESTAMPS.has(k) && !(VISITOR_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new VisitorError('invalid', `${at}: unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}.`, `Fields: slug, ${VISITOR_FIELDS.join(', ')}.`);
  }
  if (typeof record.slug !== 'string') throw new VisitorError('invalid', `${at}: "slug" must be a string.`);
  const problem = slugProblem(record.slug);
  if (problem) throw new VisitorError('invalid', `${at}: invalid slug ${JSON.stringify(record.slug)}: ${problem}.`);
  const out: Record<string, string> = { slug: record.slug };
  for (const field of VISITOR_FIELDS) {
    const v = record[field];
    if (v === undefined && partial) continue;
    if (typeof v !== 'string') throw new VisitorError('invalid', `${at}: "${field}" must be a string.`);
    out[field] = v;
  }
  if (out.name === '') throw new VisitorError('invalid', `${at}: "name" cannot be empty.`);
  if (partial && Object.keys(out).length === 1) {
    throw new VisitorError('invalid', `${at}: nothing to change for ${JSON.stringify(out.slug)}.`, `Give at least one of ${VISITOR_FIELDS.join(', ')}.`);
  }
  return out as unknown as Visitor | VisitorPatch;
}

/** Checks one visitor or an array of them, refusing a slug given twice. */
export function parseVisitorList(value: unknown, partial: false, where: string): Visitor[];
export function parseVisitorList(value: unknown, partial: true, where: string): VisitorPatch[];
export function parseVisitorList(value: unknown, partial: boolean, where: string): Array<Visitor | VisitorPatch> {
  const items = Array.isArray(value) ? value : [value];
  const list = items.map((item, i) => (partial ? parseVisitor(item, true, where, Array.isArray(value) ? i : undefined) : parseVisitor(item, false, where, Array.isArray(value) ? i : undefined)));
  if (list.length === 0) throw new VisitorError('invalid', `${where}: the array is empty.`);
  const seen = new Set<string>();
  for (const v of list) {
    if (seen.has(v.slug)) throw new VisitorError('invalid', `${where}: slug ${JSON.stringify(v.slug)} appears twice.`);
    seen.add(v.slug);
  }
  return list;
}

/** What to do about a visitors file that cannot be read as visitors. */
const FILE_HINT = 'Fix or move the file; it was left unchanged.';

/**
 * Parses the text of a visitors file (a JSON array of visitors), the one reader `voice demo`,
 * `voice visitor` and the local PostgREST stand-in share. A hand-written file may leave out the
 * prompt fields; they default to empty. Anything else is a `corrupt` VisitorError.
 */
export function parseVisitorsFile(text: string, path: string): Visitor[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new VisitorError('corrupt', `${path} is not valid JSON (${(err as Error).message}).`, FILE_HINT);
  }
  if (!Array.isArray(data)) throw new VisitorError('corrupt', `${path} must hold a JSON array of visitors.`, FILE_HINT);
  try {
    return data.map((item: unknown, i) => {
      const filled = isObject(item) ? { system: '', first_message: '', ...item } : item;
      const { slug, name, system, first_message } = parseVisitor(filled, false, path, i);
      return { slug, name, system, first_message };
    });
  } catch (err) {
    throw new VisitorError('corrupt', (err as Error).message, FILE_HINT);
  }
}

/** The page address for a visitor: `<base>/<slug>`. */
export function pageUrl(base: string, slug: string): string {
  return `${base.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`;
}
