// Every catalogue operation, called on a seeded emulator with the objects its path names, and
// every answer checked against the platform's published response schema (the derived set):
// the emulator must never answer in a shape the platform does not.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import providers from '../../fixtures/providers.json' with { type: 'json' };
import { catalogue, flatten, pathParamNames } from '../catalogue/index.js';
import type { Entry } from '../catalogue/index.js';
import { loadSchemas } from '../schemas/validate.js';
import type { Schemas } from '../schemas/validate.js';
import { SEED, startEmulator } from './index.js';
import type { Emulator } from './index.js';

const bodies = new URL('../../fixtures/bodies/', import.meta.url);
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

/** The value of each path parameter: a provider name, or the id of an object created for it. */
function pathOf(e: Entry): string {
  const names = pathParamNames(e.op.path);
  const values = names.map((name, i) => {
    if (name === 'provider') return /workflows|locations/.test(e.op.path) ? HOOKS_PROVIDER : '11labs';
    if (name === 'workflowId') return (providers as Record<string, { workflows: { id: string }[] }>)[HOOKS_PROVIDER]?.workflows[0]?.id ?? 'none';
    if (name === 'memberId') return ids.get('org/member') ?? 'missing';
    // A nested resource's first path value names its parent (`/test-suite/{testSuiteId}/test`).
    const owner = e.resource.length > 1 && i === 0 ? (e.resource[0] as string) : e.resource.join('/');
    return ids.get(owner) ?? SEED[owner]?.[0]?.id ?? 'missing';
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
      if (status >= 300) {
        // A new operation needs an object for its path (a create body or a seed object) and a body that fits.
        const hint = path.includes('missing') ? ' (no object for its path: add fixtures/bodies or fixtures/seed.json data)' : e.op.body === 'json' ? ' (does fixtures/bodies have its body?)' : '';
        misfits.push(`${label}: answered ${status} ${JSON.stringify(body).slice(0, 300)}${hint}`);
        continue;
      }
      if (e.action === 'create' && body && typeof body === 'object' && 'id' in body) ids.set(e.resource.join('/'), String(body.id));
      if (e.action === 'invite') ids.set('org/member', String((body as { id: string }[])[0]?.id));
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
