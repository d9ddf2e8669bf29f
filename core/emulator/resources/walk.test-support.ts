// A walk over the platform's operations against a seeded emulator: the order that lets creates fill
// later paths, the object each path value names, the sample body of each operation
// (fixtures/bodies), and the answers the platform gives on purpose other than success. Shared by
// the answer-shape walk (shapes.test.ts) and the official server SDK's walk (cli/test).
import { existsSync, readFileSync } from 'node:fs';
import providers from './data/providers.json' with { type: 'json' };
import { pathParamNames } from '../../catalogue/index.js';
import type { Entry } from '../../catalogue/index.js';
import { SEED } from './seed.js';

const bodies = new URL('../../../fixtures/bodies/', import.meta.url);
const HOOKS_PROVIDER = Object.keys(providers)[0] as string;
const ENDED_CALL = SEED.call?.find((c) => c.status === 'ended')?.id ?? 'missing';

/**
 * Answers other than success that the platform publishes and the emulator gives on purpose, by
 * `METHOD /path`: it records no video, and a call without a video recording answers 404.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, number>> = { 'GET /call/{id}/video-recording': 404 };

/** Creates come first (their ids fill later paths), deletes and leaving last, nested before parents. */
export function phase(e: Entry): number {
  if (e.action === 'create') return e.resource.length;
  if (e.op.method === 'DELETE') return 20 - pathParamNames(e.op.path).length - (e.action === 'delete' ? 0 : 5);
  return 10;
}

/**
 * The collection a path value names: the resource words before it (`/eval/simulation/run/{id}/item/{itemId}`:
 * `eval/simulation/run`, then `eval/simulation/run/item`), or the whole resource when the path's words differ from it.
 */
function ownerOf(e: Entry, index: number): string {
  const words = e.op.path.split('/').filter(Boolean);
  const before = words.slice(
    0,
    words.findIndex((w, i) => w.startsWith('{') && words.slice(0, i + 1).filter((x) => x.startsWith('{')).length === index + 1),
  );
  const statics = before.filter((w) => !w.startsWith('{'));
  const prefix = e.resource.slice(0, statics.length);
  return statics.length && statics.every((w, i) => w === prefix[i]) ? prefix.join('/') : e.resource.join('/');
}

/** One walk: the ids its creates returned, and what each operation needs from them. */
export class OperationWalk {
  /** Ids by collection (`eval/simulation/run`), filled by `remember`. */
  readonly ids = new Map<string, string>();

  /** The entries in walking order (creates first, deletes last). */
  order<T extends Entry>(entries: readonly T[]): T[] {
    return [...entries].sort((a, b) => phase(a) - phase(b));
  }

  /** An object of a collection: one created in this walk, else a seed object (v2 collections share v1's store). */
  idOf(collection: string): string {
    const v1 = collection.replace(/^v2\//, '');
    return this.ids.get(collection) ?? SEED[collection]?.[0]?.id ?? this.ids.get(v1) ?? SEED[v1]?.[0]?.id ?? 'missing';
  }

  /** The value of each path parameter, in order: a provider or resource name, or the id of an object created for it. */
  values(e: Entry): string[] {
    const names = pathParamNames(e.op.path);
    return names.map((name, i) => {
      if (name === 'provider') return /workflows|locations/.test(e.op.path) ? HOOKS_PROVIDER : '11labs';
      if (name === 'workflowId') return (providers as Record<string, { workflows: { id: string }[] }>)[HOOKS_PROVIDER]?.workflows[0]?.id ?? 'none';
      if (name === 'memberId') return this.ids.get('org/member') ?? 'missing';
      if (name === 'resourceName') return 'pronunciation-dictionary';
      // A call's files (recordings, packet capture, log file) exist once it has ended: a seed call has.
      if (e.op.response === 'binary' && e.resource[0] === 'call') return ENDED_CALL;
      // A value that ends the path names the operation's own object (`/provider/{provider}/{resourceName}/{id}`).
      if (i === names.length - 1 && e.op.path.endsWith('}')) return this.idOf(e.resource.join('/'));
      return this.idOf(ownerOf(e, i));
    });
  }

  /** The path with its values filled in. */
  path(e: Entry): string {
    const values = this.values(e);
    let i = 0;
    return e.op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] as string));
  }

  /** The sample body of an operation: fixtures/bodies/<resource>[-<action>].json, else `{}`. */
  body(e: Entry): unknown {
    // A role change names a member, known only once the invite has run.
    if (e.action === 'update-role') return { userId: this.ids.get('org/member'), role: 'editor' };
    const file = new URL(`${[...e.resource, ...(e.action === 'create' ? [] : [e.action])].join('-')}.json`, bodies);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : {};
  }

  /** Keeps the ids an answer makes known for later paths (a create's object, an invite's member, a run's items). */
  remember(e: Entry, answer: unknown): void {
    if (e.action === 'create' && answer && typeof answer === 'object' && 'id' in answer) this.ids.set(e.resource.join('/'), String(answer.id));
    if (e.action === 'invite') this.ids.set('org/member', String((answer as { id: string }[])[0]?.id));
    if (e.keys.join('.') === 'eval.simulation.run.create') this.ids.set('eval/simulation/run/item', String((answer as { simulationRunItemIds: string[] }).simulationRunItemIds[0]));
  }
}
