// References between files: where they sit in a resource (from the kind's rules), checking that
// each names a file, and turning file ids into platform UUIDs and back.
import { isObject } from '../json.js';
import { suggestion } from '../schemas/closest.js';
import type { LocalResource, Problem } from './files.js';
import type { Kind } from './kinds.js';
import { KINDS } from './kinds.js';

/** A path into a value: object keys and array indexes. */
export type Path = (string | number)[];

/** One reference found in a resource. */
export interface RefSite {
  path: Path;
  value: string;
  /** The kind it names. */
  to: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a platform UUID (used as is, not as a file id). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const segmentsOf = new Map<string, string[]>();

/** A rule's path as segments (`members[].assistantId` is `members`, `[]`, `assistantId`), worked out once. */
function segments(rule: string): string[] {
  let segs = segmentsOf.get(rule);
  if (!segs) {
    segs = rule
      .split('.')
      .flatMap((part) => (part.endsWith('[]') ? [part.slice(0, -2), '[]'] : [part]))
      .filter(Boolean);
    segmentsOf.set(rule, segs);
  }
  return segs;
}

/** Every reference of a resource's data, by the kind's rules. */
export function refSites(kind: Kind, data: unknown): RefSite[] {
  const out: RefSite[] = [];
  const visit = (node: unknown, segs: readonly string[], depth: number, at: Path, to: string): void => {
    if (depth === segs.length) {
      if (typeof node === 'string') out.push({ path: at, value: node, to });
      return;
    }
    const seg = segs[depth] as string;
    if (seg === '[]') {
      if (Array.isArray(node)) node.forEach((item, i) => visit(item, segs, depth + 1, [...at, i], to));
    } else if (isObject(node) && seg in node) {
      visit(node[seg], segs, depth + 1, [...at, seg], to);
    }
  };
  for (const rule of kind.refs) visit(data, segments(rule.path), 0, [], rule.to);
  return out;
}

/** A deep copy of plain JSON data. */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Sets the value at a path (the containers must exist). */
export function setAt(data: unknown, path: Path, value: unknown): void {
  let node = data as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

/** Shows a path as `members[0].assistantId`. */
export function showPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Problems of references and discriminants: checked against the files, before any request. */
export function checkResources(resources: readonly LocalResource[]): Problem[] {
  const ids = new Set(resources.map((r) => `${r.kind.name}/${r.id}`));
  const problems: Problem[] = [];
  for (const r of resources) {
    const d = r.kind.discriminant;
    if (d) {
      const value = r.data[d.field];
      if (typeof value !== 'string' || !d.values.includes(value)) {
        const where = r.locate([d.field]) ?? { line: 1, col: 1 };
        const near = typeof value === 'string' ? suggestion(value, d.values) : undefined;
        const what = value === undefined ? `is missing` : `"${String(value)}" is not a known ${r.kind.label} ${d.field}`;
        problems.push({ file: r.file, ...where, message: near ? `${d.field} ${what}; did you mean ${near}?` : `${d.field} ${what} (one of: ${d.values.join(', ')})` });
      }
    }
    for (const site of refSites(r.kind, r.data)) {
      if (isUuid(site.value) || ids.has(`${site.to}/${site.value}`)) continue;
      const target = KINDS.find((k) => k.name === site.to);
      const where = r.locate(site.path) ?? { line: 1, col: 1 };
      const near = suggestion(
        site.value,
        resources.filter((x) => x.kind.name === site.to).map((x) => x.id),
      );
      problems.push({
        file: r.file,
        ...where,
        message: `${showPath(site.path)}: unknown reference "${site.value}": no ${target?.label ?? site.to} file ${target?.folder ?? site.to}/${site.value}.yml${near ? `; did you mean ${near}?` : ''}`,
      });
    }
  }
  return problems;
}

/** Maps between file ids and UUIDs, per kind. */
export interface IdMap {
  /** The UUID of a file id, if known. */
  uuidOf(kind: string, id: string): string | undefined;
  /** The file id of a UUID, if known. */
  idOf(kind: string, uuid: string): string | undefined;
}

/**
 * The data with every reference turned into a UUID. References with no UUID yet (their file is
 * created later in the same apply) are reported in `pending` and left as file ids.
 */
export function resolveRefs(kind: Kind, data: Record<string, unknown>, ids: IdMap): { body: Record<string, unknown>; pending: RefSite[] } {
  const body = clone(data);
  const pending: RefSite[] = [];
  for (const site of refSites(kind, data)) {
    if (isUuid(site.value)) continue;
    const uuid = ids.uuidOf(site.to, site.value);
    if (uuid) setAt(body, site.path, uuid);
    else pending.push(site);
  }
  return { body, pending };
}

/** The data with every known UUID turned back into its file id (unknown UUIDs stay). */
export function toFileIds(kind: Kind, data: Record<string, unknown>, ids: IdMap): Record<string, unknown> {
  const out = clone(data);
  for (const site of refSites(kind, data)) {
    const id = ids.idOf(site.to, site.value);
    if (id) setAt(out, site.path, id);
  }
  return out;
}
