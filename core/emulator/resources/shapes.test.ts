// Every catalogue operation, called on a seeded emulator with the objects its path names, and
// every answer checked against the platform's published response schema (the derived set):
// the emulator must never answer in a shape the platform does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten } from '../../catalogue/index.js';
import type { Entry } from '../../catalogue/index.js';
import { loadSchemas } from '../../schemas/validate.js';
import type { Schemas } from '../../schemas/validate.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { EXPECTED_REFUSALS, OperationWalk } from './walk.test-support.js';

const auth = { authorization: 'Bearer k' };
const walk = new OperationWalk();
let emu: Emulator;
let schemas: Schemas;

beforeAll(async () => {
  [emu, schemas] = await Promise.all([startEmulator({ seed: true }), loadSchemas()]);
});
afterAll(() => emu.close());

/** The JSON events of a server-sent stream, one per `data:` line. */
function streamEvents(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice('data: '.length)) as unknown);
}

async function send(e: Entry): Promise<{ status: number; body: unknown; events?: unknown[]; path: string }> {
  const path = walk.path(e);
  let init: RequestInit = { method: e.op.method, headers: auth };
  if (e.op.body === 'json') init = { ...init, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(walk.body(e)) };
  if (e.op.body === 'multipart') {
    const form = new FormData();
    const field = e.op.fileField ?? 'file';
    form.append(field, new Blob(['hello'], { type: 'text/plain' }), 'sample.txt');
    if (field === 'files') form.append('name', 'Sample voice');
    init = { ...init, body: form };
  }
  const query = e.op.query.includes('callId') && e.resource[0]?.startsWith('log') ? `?callId=${walk.ids.get('call') ?? ''}` : '';
  const res = await fetch(`${emu.url}${path}${query}`, init);
  const text = await res.text();
  // A streamed answer (`POST /chat/responses` by default) is judged event by event.
  if (res.headers.get('content-type')?.includes('text/event-stream')) return { status: res.status, body: text, events: streamEvents(text), path };
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV exports and empty answers are not JSON; their operations publish no JSON schema.
  }
  return { status: res.status, body, path };
}

describe('every answer fits the published response schema', () => {
  it('walks every catalogue operation', async () => {
    const entries = walk.order(flatten(catalogue));
    const misfits: string[] = [];
    const unpublished: string[] = [];
    for (const e of entries) {
      const { status, body, events, path } = await send(e);
      const label = `${e.op.method} ${path}`;
      const expected = EXPECTED_REFUSALS[`${e.op.method} ${e.op.path}`];
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
      walk.remember(e, body);
      if (!schemas.operation(e.op.method, e.op.path)?.response) {
        unpublished.push(`${e.op.method} ${e.op.path}`);
        continue;
      }
      const errors = (events ?? [body]).flatMap((answer) => schemas.response(e.op.method, e.op.path, answer));
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
