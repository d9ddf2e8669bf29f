// What a changed file touches, for `voice test --watch`: a case depends on its own file, the files
// it refers to (a simulation's scenario, personality and their structured outputs), and its target
// with everything the target refers to (a squad's members, an assistant's tools ...). An edited
// prompt therefore re-runs the tests of that assistant and of the squads it is in, and no other.
import type { LocalResource } from '../gitops/index.js';
import { refSites } from '../gitops/refs.js';
import { casesOf } from './cases.js';
import type { TestCase } from './cases.js';
import type { TestFolder } from './lint.js';
import { byId } from './lint.js';

/** The default target as a file id of the folder (`assistants` or `squads`), when there is one. */
export interface TargetFile {
  kind: 'assistants' | 'squads';
  id: string;
}

function targetResource(folder: TestFolder, test: TestCase, fallback: TargetFile | undefined): LocalResource | undefined {
  if (test.target) return byId(folder, 'assistants', test.target) ?? byId(folder, 'squads', test.target);
  return fallback ? byId(folder, fallback.kind, fallback.id) : undefined;
}

/** Every file a case depends on, its own included. */
export function filesOf(folder: TestFolder, test: TestCase, fallback: TargetFile | undefined): Set<string> {
  const files = new Set<string>();
  const queue = [test.resource, targetResource(folder, test, fallback)].filter((r): r is LocalResource => r !== undefined);
  while (queue.length) {
    const r = queue.shift() as LocalResource;
    if (files.has(r.file)) continue;
    files.add(r.file);
    for (const site of refSites(r.kind, r.data)) {
      const next = byId(folder, site.to, site.value);
      if (next) queue.push(next);
    }
  }
  for (const suite of folder.resources.filter((r) => r.kind.name === 'simulationSuites')) {
    if (test.kind === 'simulations' && ((suite.data.simulationIds as unknown[] | undefined) ?? []).includes(test.id)) files.add(suite.file);
  }
  return files;
}

/**
 * The keys of the cases of `folder` that a change of `changed` (files relative to the folder, `/`
 * separated) touches; `previous` is the folder before the change, so a deleted file still counts.
 */
export function affectedCases(folder: TestFolder, changed: ReadonlySet<string>, fallback: TargetFile | undefined, previous?: TestFolder): Set<string> {
  const out = new Set<string>();
  const before = previous ? new Map(casesOf(previous).map((c) => [c.key, filesOf(previous, c, fallback)])) : new Map<string, Set<string>>();
  for (const test of casesOf(folder)) {
    const files = filesOf(folder, test, fallback);
    const old = before.get(test.key);
    if ([...changed].some((f) => files.has(f) || old?.has(f)) || (previous && !old)) out.add(test.key);
  }
  return out;
}
