// Compares the files with the account: what to create, update (field by field), delete (with
// prune: resources the state knows that no file has) and what is unchanged. Changes nothing.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Client } from '../client/index.js';
import { schemaProblems } from './check-schema.js';
import type { Change } from './diff.js';
import { diff } from './diff.js';
import { GitopsInputError } from './errors.js';
import type { LocalResource, Problem } from './files.js';
import { readProject } from './files.js';
import type { Kind } from './kinds.js';
import { availableKinds } from './kinds.js';
import type { IdMap } from './refs.js';
import { checkResources, isUuid, refSites, toFileIds } from './refs.js';
import type { Remote } from './remote.js';
import { configOf, listKinds } from './remote.js';
import type { State } from './state.js';
import { entryOf, readState } from './state.js';

/** One line of a plan. */
export interface PlanItem {
  action: 'create' | 'update' | 'delete' | 'unchanged';
  kind: string;
  id: string;
  /** The file, relative to the directory (none for a delete). */
  file?: string;
  /** The platform UUID (none for a create). */
  uuid?: string;
  /** Field-level changes of an update. */
  changes?: Change[];
  /** Why, when it is not obvious (a resource gone from the account is created again). */
  note?: string;
}

/** What `plan` found. */
export interface Plan {
  dir: string;
  /** The state file; absent when the state is kept in memory only. */
  statePath?: string;
  items: PlanItem[];
  /** Resources the state knows that no file has, kept because prune was off. */
  unmanaged: { kind: string; id: string; uuid: string }[];
  counts: { create: number; update: number; delete: number; unchanged: number };
  /** Notes on files skipped. */
  warnings: string[];
  /** The state read, and the files: what apply works from. */
  state: State;
  resources: LocalResource[];
}

/** Options of `plan`. */
export interface PlanOptions {
  client: Client;
  /** The resources directory. */
  dir: string;
  /** The state file of the account; without it, apply starts from an empty state kept in memory only (a throwaway platform's). */
  statePath?: string;
  /** Types (`assistants`, `simulations/tests`) or files to limit the plan to; all when empty. */
  targets?: readonly string[];
  /** Delete resources the state knows that no file has. */
  prune?: boolean;
}

/** Maps file ids and UUIDs through a state. */
export function stateIds(state: State): IdMap {
  const reverse = new Map<string, string>();
  for (const [kind, section] of Object.entries(state.sections)) for (const [id, e] of Object.entries(section)) reverse.set(`${kind}/${e.uuid}`, id);
  return {
    uuidOf: (kind, id) => state.sections[kind]?.[id]?.uuid,
    idOf: (kind, uuid) => reverse.get(`${kind}/${uuid}`),
  };
}

/**
 * Reads and checks a directory (references, and every file against the platform's request
 * schemas); throws GitopsInputError listing every problem in file order (exit 2, nothing sent).
 */
export async function loadChecked(dir: string): Promise<{ resources: LocalResource[]; warnings: string[] }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new GitopsInputError([], `No resources directory at ${dir} (pass --dir, or run \`voice pull\` to start one)`);
  const project = readProject(dir);
  const own = [...project.problems, ...checkResources(project.resources)];
  // The schema's view of a place already explained (a broken reference, an unknown type) adds nothing.
  const at = (p: Problem): string => `${p.file}:${p.line}:${p.col}`;
  const explained = new Set(own.map(at));
  const problems: Problem[] = [...own, ...(await schemaProblems(project.resources)).filter((p) => !explained.has(at(p)))];
  // Stable: problems of one place keep the order they were found in.
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0)));
  if (problems.length) throw new GitopsInputError(problems);
  return { resources: project.resources, warnings: project.warnings };
}

interface Selection {
  resources: LocalResource[];
  kinds: Kind[];
  /** Whether whole types were chosen (so state entries without files count). */
  wholeKinds: boolean;
}

function select(dir: string, resources: LocalResource[], targets: readonly string[]): Selection {
  const kinds = availableKinds();
  if (targets.length === 0) return { resources, kinds, wholeKinds: true };
  const chosenKinds = new Set<Kind>();
  const chosenFiles = new Set<LocalResource>();
  const problems: Problem[] = [];
  for (const raw of targets) {
    const t = raw.replace(/\/+$/, '');
    const byKind = kinds.filter((k) => k.name === t || k.folder === t || k.folder.startsWith(`${t}/`));
    if (byKind.length) {
      byKind.forEach((k) => chosenKinds.add(k));
      continue;
    }
    const abs = isAbsolute(t) ? t : resolve(t);
    const rel = relative(dir, abs).split(sep).join('/');
    const match = resources.find((r) => r.file === rel || r.file === t);
    if (match) chosenFiles.add(match);
    else problems.push({ file: raw, message: `not a type (${kinds.map((k) => k.name).join(', ')}) nor a resource file under ${dir}` });
  }
  if (problems.length) throw new GitopsInputError([], `Unknown target${problems.length > 1 ? 's' : ''}:\n${problems.map((p) => `  ${p.file}: ${p.message}`).join('\n')}`);
  const picked = resources.filter((r) => chosenKinds.has(r.kind) || chosenFiles.has(r));
  return { resources: picked, kinds: [...chosenKinds], wholeKinds: chosenFiles.size === 0 };
}

/** Adds the files a selection refers to that the account does not have yet (they must exist first). */
function withMissingDependencies(picked: LocalResource[], all: LocalResource[], state: State): LocalResource[] {
  if (picked.length === all.length) return all;
  const out = new Set(picked);
  const queue = [...picked];
  while (queue.length) {
    const r = queue.pop() as LocalResource;
    for (const site of refSites(r.kind, r.data)) {
      if (isUuid(site.value) || entryOf(state, site.to, site.value)) continue;
      const dep = all.find((x) => x.kind.name === site.to && x.id === site.value);
      if (dep && !out.has(dep)) {
        out.add(dep);
        queue.push(dep);
      }
    }
  }
  return all.filter((r) => out.has(r));
}

/** Works out what apply would do. Reads the files, the state and the account; changes nothing. */
export async function plan(options: PlanOptions): Promise<Plan> {
  const { resources: all, warnings } = await loadChecked(options.dir);
  const state = options.statePath ? readState(options.statePath) : { sections: {} };
  const sel = select(options.dir, all, options.targets ?? []);
  const chosen = withMissingDependencies(sel.resources, all, state);
  const order = availableKinds();
  const involved = order.filter(
    (k) => chosen.some((r) => r.kind === k && entryOf(state, k.name, r.id)) || (sel.wholeKinds && sel.kinds.includes(k) && Object.keys(state.sections[k.name] ?? {}).length > 0),
  );
  const remote = await listKinds(options.client, involved);
  // A UUID the state knows but the account no longer has is not mapped back to its id, so a
  // file that refers to a resource being created again is an update (it must get the new UUID).
  const known = stateIds(state);
  const gone = (kind: string, uuid: string): boolean => remote.has(kind) && !remote.get(kind)?.has(uuid);
  const ids: IdMap = { uuidOf: known.uuidOf, idOf: (kind, uuid) => (gone(kind, uuid) ? undefined : known.idOf(kind, uuid)) };
  const items: PlanItem[] = [];
  for (const r of chosen) {
    const entry = entryOf(state, r.kind.name, r.id);
    const have: Remote | undefined = entry ? remote.get(r.kind.name)?.get(entry.uuid) : undefined;
    if (!entry || !have) {
      items.push({ action: 'create', kind: r.kind.name, id: r.id, file: r.file, ...(entry ? { note: `${entry.uuid} is gone from the account` } : {}) });
      continue;
    }
    const changes = diff(r.data, toFileIds(r.kind, configOf(r.kind, have), ids), entry.fields);
    const fixed = changes.filter((c) => r.kind.createOnly?.includes(c.path.split(/[.[]/)[0] as string)).map((c) => c.path);
    const note = fixed.length ? `${fixed.join(', ')} can only be set on create: give the file a new name to create a new ${r.kind.label}` : undefined;
    items.push({ action: changes.length ? 'update' : 'unchanged', kind: r.kind.name, id: r.id, file: r.file, uuid: entry.uuid, ...(changes.length ? { changes } : {}), ...(note ? { note } : {}) });
  }
  const unmanaged: Plan['unmanaged'] = [];
  if (sel.wholeKinds) {
    for (const kind of [...sel.kinds].reverse()) {
      for (const [id, entry] of Object.entries(state.sections[kind.name] ?? {})) {
        if (all.some((r) => r.kind === kind && r.id === id)) continue;
        const gone = !remote.get(kind.name)?.has(entry.uuid);
        if (options.prune) items.push({ action: 'delete', kind: kind.name, id, uuid: entry.uuid, ...(gone ? { note: 'already gone from the account; only the state entry is removed' } : {}) });
        else if (!gone) unmanaged.push({ kind: kind.name, id, uuid: entry.uuid });
      }
    }
  }
  const count = (a: PlanItem['action']): number => items.filter((i) => i.action === a).length;
  return {
    dir: options.dir,
    ...(options.statePath ? { statePath: options.statePath } : {}),
    items,
    unmanaged,
    counts: { create: count('create'), update: count('update'), delete: count('delete'), unchanged: count('unchanged') },
    warnings,
    state,
    resources: all,
  };
}

/** The plan as data (what `--json` prints). */
export function planData(p: Plan): Record<string, unknown> {
  return { dir: p.dir, stateFile: p.statePath, items: p.items, unmanaged: p.unmanaged, counts: p.counts };
}
