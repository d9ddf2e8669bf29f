// The cases of a test folder: each eval and each simulation, by a key (`evals/greets`,
// `simulations/books-a-checkup`) that sharding, watching, merging and the times file share.
import type { LocalResource } from '../gitops/index.js';
import type { Json } from '../messages/index.js';
import { extensionOf } from './extension.js';
import type { TestFolder } from './lint.js';
import { ofKind } from './lint.js';

/** One eval or simulation. */
export interface TestCase {
  key: string;
  kind: 'evals' | 'simulations';
  id: string;
  file: string;
  name: string;
  /** The suite a simulation runs in (its first). */
  suite?: string;
  /** The assistant or squad file id the test names for itself (`x-voice.target`). */
  target?: string;
  /** A simulation's transport, when its file names one (`x-voice.transport`). */
  transport?: string;
  resource: LocalResource;
}

/** A resource's name, or its id. */
export function nameOf(data: Json, id: string): string {
  return typeof data.name === 'string' && data.name ? data.name : id;
}

/** Whether a filter (case-insensitive, in the id or the name) keeps a case. */
export function matches(filter: string | undefined, id: string, name: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return id.toLowerCase().includes(f) || name.toLowerCase().includes(f);
}

/** The folder's cases the filter keeps, evals first, each kind in file order. */
export function casesOf(folder: TestFolder, filter?: string): TestCase[] {
  const suiteOf = new Map<string, string>();
  for (const s of ofKind(folder, 'simulationSuites')) for (const id of (s.data.simulationIds as string[] | undefined) ?? []) if (!suiteOf.has(id)) suiteOf.set(id, nameOf(s.data, s.id));
  const out: TestCase[] = [];
  for (const kind of ['evals', 'simulations'] as const) {
    for (const r of ofKind(folder, kind)) {
      const name = nameOf(r.data, r.id);
      if (!matches(filter, r.id, name)) continue;
      const target = extensionOf(r).target?.replace(/^(assistants|squads)\//, '');
      const transport = kind === 'simulations' ? extensionOf(r).transport : undefined;
      out.push({
        key: `${kind}/${r.id}`,
        kind,
        id: r.id,
        file: r.file,
        name,
        ...(suiteOf.has(r.id) ? { suite: suiteOf.get(r.id) as string } : {}),
        ...(target ? { target } : {}),
        ...(transport ? { transport } : {}),
        resource: r,
      });
    }
  }
  return out;
}
