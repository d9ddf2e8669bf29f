// Checks each resource file against the request schema of its type's create before anything is
// planned (its shape: fields, required ones, types, enum values), so a file the platform would
// refuse stops the plan (and the apply) with file:line and the closest known name, instead of
// failing halfway through an apply.
import { suggestion } from '../schemas/closest.js';
import { fieldIn, requestSchemaOf } from '../schemas/fields.js';
import { shapeProblems } from '../schemas/shape-check.js';
import type { LocalResource, Problem } from './files.js';
import { opOf } from './kinds.js';
import { isUuid, refSites, setAt } from './refs.js';

// References hold file ids until apply turns them into UUIDs; any UUID stands in for them here.
const STAND_IN = '00000000-0000-4000-8000-000000000000';

function segments(path: string): (string | number)[] {
  return path ? path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : [];
}

type Found = Awaited<ReturnType<typeof requestSchemaOf>>;

/** The problems of one resource's data against its create schema, each with a near name when one is close. */
function problemsOf(r: LocalResource, found: Found): Problem[] {
  if (!found) return [];
  // A copy only when a reference needs its stand-in (structuredClone costs about 40 µs a file).
  const sites = refSites(r.kind, r.data).filter((site) => !isUuid(site.value));
  const data = sites.length ? structuredClone(r.data) : r.data;
  for (const site of sites) setAt(data, site.path, STAND_IN);
  const errors = shapeProblems(found.schema, found.comps, data);
  return errors.map((e) => {
    const path = segments(e.path);
    let message = e.message;
    if (e.rule === 'unknown-field') {
      const info = fieldIn(found.schema, found.comps, path.map(String), data);
      const near = info.known ? undefined : suggestion(String(path[path.length - 1]), info.names);
      if (near) message += `; did you mean ${[...path.slice(0, -1), near].join('.')}?`;
    }
    const value = path.reduce<unknown>((node, k) => (node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[k] : undefined), data);
    if (e.rule === 'one-of' && e.allowed && typeof value === 'string') {
      const near = suggestion(value, e.allowed);
      if (near) message = `${e.path} "${value}" is not allowed; did you mean ${near}? (${e.message.slice(e.path.length + 1)})`;
    }
    const where = r.locate(path) ?? r.locate(path.slice(0, -1)) ?? { line: 1, col: 1 };
    return { file: r.file, ...where, message };
  });
}

/** Problems of every resource against the platform's request schemas (empty when all fit). */
export async function schemaProblems(resources: readonly LocalResource[]): Promise<Problem[]> {
  // One schema lookup per kind, then every file synchronously (no promise per file).
  const schemas = new Map<string, Found>();
  for (const r of resources) {
    if (schemas.has(r.kind.name)) continue;
    const op = opOf(r.kind, 'create');
    schemas.set(r.kind.name, await requestSchemaOf(op.method, op.path));
  }
  return resources.flatMap((r) => problemsOf(r, schemas.get(r.kind.name)));
}
