// fixtures/bodies/<resource>[-<action>].json are sample request bodies the CLI docs and tests
// use; each must be accepted by the operation its name points at.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from '../../catalogue/index.js';
import type { Entry } from '../../catalogue/index.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

const dir = new URL('../../../fixtures/bodies/', import.meta.url);
const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
let emu: Emulator;

/** The body file name of an entry: resource words, then the action unless it is `create`. */
function fileOf(e: Entry): string {
  return [...e.resource, ...(e.action === 'create' ? [] : [e.action])].join('-');
}

beforeAll(async () => {
  emu = await startEmulator({ seed: true }); // bodies may name seed objects (a file to attach)
});
afterAll(() => emu.close());

async function post(path: string, body: unknown): Promise<{ id: string }> {
  return (await fetch(`${emu.url}${path}`, { method: 'POST', headers: H, body: JSON.stringify(body) })).json();
}

describe('fixtures/bodies', () => {
  const byFile = new Map(
    flatten(catalogue)
      .filter((e) => e.op.body === 'json')
      .map((e) => [fileOf(e), e]),
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('has a body for every resource with a create operation', () => {
    const creatable = flatten(catalogue)
      .filter((e) => e.action === 'create' && e.op.body === 'json')
      .map(fileOf);
    expect(creatable.filter((name) => !files.includes(`${name}.json`))).toEqual([]);
  });

  it.each(files)('%s is accepted by its operation', async (file) => {
    const entry = byFile.get(file.replace(/\.json$/, ''));
    expect(entry, `no JSON operation is named ${file}`).toBeDefined();
    const op = (entry as Entry).op;
    const values: string[] = [];
    for (const name of pathParamNames(op.path)) {
      if (name === 'provider') values.push('11labs');
      else if (name === 'testSuiteId') values.push((await post('/test-suite', {})).id);
      else if (op.path.startsWith('/org/')) values.push((await post('/org', {})).id);
      else {
        // A value before the last word names the parent (`/v2/knowledge-base/{id}/file`).
        const words = op.path.endsWith(`{${name}}`) ? (entry as Entry).resource : (entry as Entry).resource.slice(0, -1);
        values.push((await post(`/${words.join('/')}`, JSON.parse(readFileSync(new URL(`${words.join('-')}.json`, dir), 'utf8')))).id);
      }
    }
    let i = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] as string));
    const res = await fetch(`${emu.url}${path}`, { method: op.method, headers: H, body: readFileSync(new URL(file, dir)) });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  });
});
