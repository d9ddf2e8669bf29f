// Writes the account's resources as files: server-set fields dropped, UUIDs turned into file ids,
// stable formatting. A file edited since the last pull or apply is kept unless forced. Resources
// are bound to files through the state only; a new resource gets a fresh id from its name, never
// an existing file's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '../client/index.js';
import { leafPaths } from './diff.js';
import { GitopsInputError } from './errors.js';
import { EXTENSION_KEY, readProject } from './files.js';
import { render, systemPrompt } from './format.js';
import type { Kind } from './kinds.js';
import { availableKinds } from './kinds.js';
import { toFileIds } from './refs.js';
import { configOf, listKinds } from './remote.js';
import { entryOf, readState, setEntry, textHash, updateState } from './state.js';
import type { StateEntry } from './state.js';

/** Options of `pull`. */
export interface PullOptions {
  client: Client;
  dir: string;
  statePath: string;
  /** Types to pull (`assistants`, `simulations`); all when empty. */
  kinds?: readonly string[];
  /** Overwrite files edited locally. */
  force?: boolean;
  /** Recorded in the state file, for people reading it. */
  account?: string;
}

/** One file pull looked at. */
export interface PulledFile {
  kind: string;
  id: string;
  file: string;
  uuid: string;
  status: 'written' | 'unchanged' | 'kept';
}

/** Resolves TYPE arguments (a type, its folder, or a parent folder such as `simulations`). */
export function kindsFor(names: readonly string[] = []): Kind[] {
  const kinds = availableKinds();
  if (names.length === 0) return kinds;
  const bad = names.filter((n) => !kinds.some((k) => k.name === n || k.folder === n || k.folder.startsWith(`${n}/`)));
  if (bad.length) throw new GitopsInputError([], `Unknown type${bad.length > 1 ? 's' : ''} ${bad.join(', ')}: use one of ${kinds.map((k) => k.name).join(', ')}`);
  return kinds.filter((k) => names.some((n) => k.name === n || k.folder === n || k.folder.startsWith(`${n}/`)));
}

function slug(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 60);
}

function nameOf(kind: Kind, rec: Record<string, unknown>): string {
  for (const path of kind.nameFields ?? ['name']) {
    let node: unknown = rec;
    for (const key of path.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (typeof node === 'string' && node.trim()) return node;
  }
  return '';
}

/** Pulls every resource of the chosen types into the directory and records them in the state. */
export async function pull(options: PullOptions): Promise<PulledFile[]> {
  const kinds = kindsFor(options.kinds);
  const state = readState(options.statePath);
  mkdirSync(options.dir, { recursive: true });
  const project = readProject(options.dir);
  const remote = await listKinds(options.client, kinds);
  const taken = new Set<string>();
  for (const r of project.resources) taken.add(`${r.kind.name}/${r.id}`);
  for (const p of project.problems) taken.add(p.file);
  const reverse = new Map<string, string>();
  for (const [name, section] of Object.entries(state.sections)) {
    for (const [id, e] of Object.entries(section)) {
      reverse.set(`${name}/${e.uuid}`, id);
      taken.add(`${name}/${id}`);
    }
  }
  // Ids first, for every kind, so references between new resources resolve.
  for (const kind of kinds) {
    for (const rec of [...(remote.get(kind.name)?.values() ?? [])].reverse()) {
      if (reverse.has(`${kind.name}/${rec.id}`)) continue;
      const base = slug(nameOf(kind, rec)) || `${kind.label.replace(/ /g, '-')}-${rec.id.slice(0, 8)}`;
      let id = base;
      for (let n = 2; taken.has(`${kind.name}/${id}`); n++) id = `${base}-${n}`;
      taken.add(`${kind.name}/${id}`);
      reverse.set(`${kind.name}/${rec.id}`, id);
    }
  }
  const ids = {
    uuidOf: () => undefined,
    idOf: (kind: string, uuid: string) => reverse.get(`${kind}/${uuid}`),
  };
  const out: PulledFile[] = [];
  const bound: [string, string, StateEntry][] = [];
  for (const kind of kinds) {
    for (const rec of [...(remote.get(kind.name)?.values() ?? [])].reverse()) {
      const id = reverse.get(`${kind.name}/${rec.id}`) as string;
      const data = toFileIds(kind, configOf(kind, rec), ids);
      const existing = project.resources.find((r) => r.kind === kind && r.id === id);
      const format = existing?.format ?? (kind.markdown && systemPrompt(data) !== undefined ? 'md' : 'yml');
      const file = existing?.file ?? `${kind.folder}/${id}.${format}`;
      const path = join(options.dir, ...file.split('/'));
      // The file's own `x-voice` block (a test's provenance and budgets) is no platform field: it stays.
      const text = render(existing?.extension !== undefined ? { ...data, [EXTENSION_KEY]: existing.extension } : data, format);
      const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      const entry = entryOf(state, kind.name, id);
      let status: PulledFile['status'] = 'written';
      if (current === text) status = 'unchanged';
      else if (current !== undefined && !options.force && (!entry?.hash || entry.hash !== textHash(current))) status = 'kept';
      if (status === 'written') {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      }
      if (status !== 'kept') bound.push([kind.name, id, { uuid: rec.id, fields: leafPaths(data), hash: textHash(text) }]);
      out.push({ kind: kind.name, id, file, uuid: rec.id, status });
    }
  }
  await updateState(options.statePath, (s) => {
    if (options.account) s.account = options.account;
    for (const [kind, id, entry] of bound) setEntry(s, kind, id, entry);
  });
  return out;
}
