// Every resource with create/list/get/update/delete, driven through the real CLI against the
// emulator: create from the fixture body, list (JSON and piped), get, update with --set, refuse
// delete without --yes, delete with --yes, then get fails with 404 (a campaign is archived instead).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from '#core/catalogue/index';
import type { Entry } from '#core/catalogue/index';
import { fileHarness, json } from './harness.js';
import { ROOT } from './build.js';

const CRUD = ['create', 'list', 'get', 'update', 'delete'];
const byResource = new Map<string, Entry[]>();
for (const e of flatten(catalogue)) byResource.set(e.resource.join(' '), [...(byResource.get(e.resource.join(' ')) ?? []), e]);
// Resources whose create and update take a JSON body (provider resources take none: published.test.ts).
const crudResources = [...byResource].filter(([, es]) => CRUD.every((a) => es.some((e) => e.action === a)) && es.find((e) => e.action === 'update')?.op.body === 'json').map(([k]) => k.split(' '));

const hf = fileHarness();

function bodyArgs(resource: string[]): string[] {
  const fixture = join(ROOT, 'fixtures', 'bodies', `${resource.join('-')}.json`);
  return existsSync(fixture) ? ['-f', fixture] : ['--set', 'name=Made by the CLI test'];
}

async function createOne(resource: string[], parents: string[]): Promise<string> {
  const args = resource[0] === 'file' ? [...resource, 'create', join(hf.current.home, 'faq.txt')] : [...resource, 'create', ...parents, ...bodyArgs(resource)];
  if (resource[0] === 'file') writeFileSync(join(hf.current.home, 'faq.txt'), 'Opening hours: 9 to 5.\n');
  const run = await hf.current.voice([...args, '--json']);
  expect(run.exitCode, run.stderr).toBe(0);
  const id = json<{ id: string }>(run).id;
  expect(typeof id).toBe('string');
  return id;
}

describe('CRUD through the CLI', () => {
  it('covers the resources that have create, list, get, update and delete', () => {
    expect(crudResources.map((r) => r.join(' '))).toEqual(expect.arrayContaining(['assistant', 'squad', 'tool', 'file', 'test-suite run', 'phone-number']));
    expect(crudResources.map((r) => r.join(' '))).toEqual(
      expect.arrayContaining([
        'v2 campaign',
        'v2 knowledge-base',
        'structured-output',
        'eval',
        'eval simulation',
        'eval simulation personality',
        'eval simulation scenario',
        'eval simulation suite',
        'reporting insight',
        'reporting board',
        'observability scorecard',
        'monitoring policy',
      ]),
    );
  });

  for (const resource of crudResources) {
    it(`${resource.join(' ')}: create, list, get, update, delete`, async () => {
      const getEntry = (byResource.get(resource.join(' ')) as Entry[]).find((e) => e.action === 'get') as Entry;
      // Nested resources (test-suite run) need their parents created first.
      const parents: string[] = [];
      const parentCount = pathParamNames(getEntry.op.path).length - 1;
      for (let i = 0; i < parentCount; i++) parents.push(await createOne(resource.slice(0, i + 1), parents));

      const id = await createOne(resource, parents);

      const listed = await hf.current.voice([...resource, 'list', ...parents, '--json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      const page = json<unknown>(listed);
      const items = (Array.isArray(page) ? page : (page as { results: { id: string }[] }).results) as { id: string }[];
      expect(items.map((x) => x.id)).toContain(id);

      const piped = await hf.current.voice([...resource, 'list', ...parents]);
      expect(piped.exitCode).toBe(0);
      expect(piped.stdout.split('\n').map((l) => l.split('\t')[0])).toContain(id);
      expect(piped.stdout).not.toContain('\u001b[');

      const got = await hf.current.voice([...resource, 'get', ...parents, id, '--json']);
      expect(got.exitCode, got.stderr).toBe(0);
      expect(json<{ id: string }>(got).id).toBe(id);

      // Some updates need more than a name (a squad's members, a template's type): fixtures/bodies/<resource>-update.json.
      const updateFixture = join(ROOT, 'fixtures', 'bodies', `${resource.join('-')}-update.json`);
      const updateBody = existsSync(updateFixture) ? ['-f', updateFixture] : [];
      // A function tool publishes no top-level name: its name is its function's.
      const nameAt = resource.join(' ') === 'tool' ? 'function.name' : 'name';
      const updated = await hf.current.voice([...resource, 'update', ...parents, id, ...updateBody, '--set', `${nameAt}=Front-desk`, '--json']);
      expect(updated.exitCode, updated.stderr).toBe(0);
      const after = json<{ name?: string; function?: { name?: string; description?: string } }>(updated);
      expect(nameAt === 'name' ? after.name : after.function?.name).toBe('Front-desk');
      if (nameAt !== 'name') expect(after.function?.description).toBe('Book an appointment');

      const refused = await hf.current.voice([...resource, 'delete', ...parents, id]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('--yes');
      expect((await hf.current.voice([...resource, 'get', ...parents, id, '--json'])).exitCode).toBe(0);

      const deleted = await hf.current.voice([...resource, 'delete', ...parents, id, '--yes']);
      expect(deleted.exitCode, deleted.stderr).toBe(0);
      const gone = await hf.current.voice([...resource, 'get', ...parents, id, '--json']);
      if (resource.at(-1) === 'campaign') {
        // Deleting a campaign archives it, as the platform does: its record stays.
        expect(json<{ status?: string }>(gone).status).toBe('archived');
        return;
      }
      expect(gone.exitCode).toBe(1);
      expect(gone.stderr).toMatch(/404/);
    });
  }
});
