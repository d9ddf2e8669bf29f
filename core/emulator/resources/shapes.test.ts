// Every catalogue operation, called on a seeded emulator with the objects its path names, and
// every answer checked against the platform's published response schema (the derived set):
// the emulator must never answer in a shape the platform does not.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import providers from './data/providers.json' with { type: 'json' };
import { catalogue, flatten, pathParamNames } from '../../catalogue/index.js';
import type { Entry } from '../../catalogue/index.js';
import { loadSchemas } from '../../schemas/validate.js';
import type { Schemas } from '../../schemas/validate.js';
import { SEED, startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

const bodies = new URL('../../../fixtures/bodies/', import.meta.url);
const auth = { authorization: 'Bearer k' };
let emu: Emulator;
let schemas: Schemas;

beforeAll(async () => {
  [emu, schemas] = await Promise.all([startEmulator({ seed: true }), loadSchemas()]);
});
afterAll(() => emu.close());

/** The sample body of an operation: fixtures/bodies/<resource>[-<action>].json, else `{}`. */
function bodyOf(e: Entry): unknown {
  // A role change names a member, known only once the invite has run.
  if (e.action === 'update-role') return { userId: ids.get('org/member'), role: 'editor' };
  const file = new URL(`${[...e.resource, ...(e.action === 'create' ? [] : [e.action])].join('-')}.json`, bodies);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

const ids = new Map<string, string>();
const HOOKS_PROVIDER = Object.keys(providers)[0] as string;
const ENDED_CALL = SEED.call?.find((c) => c.status === 'ended')?.id ?? 'missing';
/**
 * Answers other than success that the platform publishes and the emulator gives on purpose: it
 * records no video, and a call without a video recording answers 404 ("Artifact not found").
 */
const EXPECTED: Readonly<Record<string, number>> = { 'GET /call/{id}/video-recording': 404 };

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

/** An object of a collection: one created in this walk, else a seed object (v2 collections share v1's store). */
function idOf(collection: string): string {
  const v1 = collection.replace(/^v2\//, '');
  return ids.get(collection) ?? SEED[collection]?.[0]?.id ?? ids.get(v1) ?? SEED[v1]?.[0]?.id ?? 'missing';
}

/** The value of each path parameter: a provider or resource name, or the id of an object created for it. */
function pathOf(e: Entry): string {
  const names = pathParamNames(e.op.path);
  const values = names.map((name, i) => {
    if (name === 'provider') return /workflows|locations/.test(e.op.path) ? HOOKS_PROVIDER : '11labs';
    if (name === 'workflowId') return (providers as Record<string, { workflows: { id: string }[] }>)[HOOKS_PROVIDER]?.workflows[0]?.id ?? 'none';
    if (name === 'memberId') return ids.get('org/member') ?? 'missing';
    if (name === 'resourceName') return 'pronunciation-dictionary';
    // A call's files (recordings, packet capture, log file) exist once it has ended: a seed call has.
    if (e.op.response === 'binary' && e.resource[0] === 'call') return ENDED_CALL;
    // A value that ends the path names the operation's own object (`/provider/{provider}/{resourceName}/{id}`).
    if (i === names.length - 1 && e.op.path.endsWith('}')) return idOf(e.resource.join('/'));
    return idOf(ownerOf(e, i));
  });
  let i = 0;
  return e.op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] as string));
}

async function send(e: Entry): Promise<{ status: number; body: unknown; path: string }> {
  const path = pathOf(e);
  let init: RequestInit = { method: e.op.method, headers: auth };
  if (e.op.body === 'json') init = { ...init, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(bodyOf(e)) };
  if (e.op.body === 'multipart') {
    const form = new FormData();
    const field = e.op.fileField ?? 'file';
    form.append(field, new Blob(['hello'], { type: 'text/plain' }), 'sample.txt');
    if (field === 'files') form.append('name', 'Sample voice');
    init = { ...init, body: form };
  }
  const query = e.op.query.includes('callId') && e.resource[0]?.startsWith('log') ? `?callId=${ids.get('call') ?? ''}` : '';
  const res = await fetch(`${emu.url}${path}${query}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV exports and empty answers are not JSON; their operations publish no JSON schema.
  }
  return { status: res.status, body, path };
}

/** Creates come first (their ids fill later paths), deletes and leaving last, nested before parents. */
function phase(e: Entry): number {
  if (e.action === 'create') return e.resource.length;
  if (e.op.method === 'DELETE') return 20 - pathParamNames(e.op.path).length - (e.action === 'delete' ? 0 : 5);
  return 10;
}

describe('every answer fits the published response schema', () => {
  it('walks every catalogue operation', async () => {
    const entries = flatten(catalogue).sort((a, b) => phase(a) - phase(b));
    const misfits: string[] = [];
    const unpublished: string[] = [];
    for (const e of entries) {
      const { status, body, path } = await send(e);
      const label = `${e.op.method} ${path}`;
      const expected = EXPECTED[`${e.op.method} ${e.op.path}`];
      if (expected !== undefined) {
        if (status !== expected) misfits.push(`${label}: answered ${status}, expected ${expected}`);
        continue;
      }
      if (status >= 300) {
        // A new operation needs an object for its path (a create body or a seed object) and a body that fits.
        const hint = path.includes('missing')
          ? ' (no object for its path: add fixtures/bodies or core/emulator/resources/data/seed.json data)'
          : e.op.body === 'json'
            ? ' (does fixtures/bodies have its body?)'
            : '';
        misfits.push(`${label}: answered ${status} ${JSON.stringify(body).slice(0, 300)}${hint}`);
        continue;
      }
      if (e.action === 'create' && body && typeof body === 'object' && 'id' in body) ids.set(e.resource.join('/'), String(body.id));
      if (e.action === 'invite') ids.set('org/member', String((body as { id: string }[])[0]?.id));
      // A simulation run makes its items; they have no create of their own.
      if (e.keys.join('.') === 'eval.simulation.run.create') ids.set('eval/simulation/run/item', String((body as { simulationRunItemIds: string[] }).simulationRunItemIds[0]));
      if (!schemas.operation(e.op.method, e.op.path)?.response) {
        unpublished.push(`${e.op.method} ${e.op.path}`);
        continue;
      }
      const errors = schemas.response(e.op.method, e.op.path, body);
      if (errors.length) misfits.push(`${label}: ${errors.map((x) => x.message).join('; ')}`);
    }
    expect(misfits).toEqual([]);
    // Only operations the published document lacks (or answers without a JSON body) go unchecked.
    for (const key of unpublished) {
      const [method, path] = key.split(' ') as [string, string];
      const known = schemas.operation(method, path);
      expect(known?.response, `${key} has a published answer schema`).toBeUndefined();
    }
  });
});
