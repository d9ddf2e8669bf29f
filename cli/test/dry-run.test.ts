// `--dry-run` for every catalogue operation: the right method and URL, the key masked, and
// nothing sent (the emulator's store stays empty).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from '#core/catalogue/index';
import { KEY, captured, harness, json, pool } from './harness.js';
import type { Harness } from './harness.js';

interface Shown {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const entries = flatten(catalogue);
let h: Harness;
let upload: string;
beforeAll(async () => {
  h = await harness();
  upload = join(h.home, 'sample.pdf');
  writeFileSync(upload, '%PDF-1.4 sample');
});
afterAll(async () => {
  await h?.close();
  expect(captured.join('\n')).not.toContain(KEY);
});

function argvOf(e: (typeof entries)[number]): { argv: string[]; path: string } {
  const names = pathParamNames(e.op.path);
  const values = names.map((n) => `v-${n}/x y`);
  let path = e.op.path;
  for (const [i, n] of names.entries()) path = path.replace(`{${n}}`, encodeURIComponent(values[i] as string));
  const argv = [...e.resource, e.action, ...values];
  if (e.op.body === 'multipart') argv.push(upload);
  return { argv, path };
}

describe('--dry-run', () => {
  it('prints the method and URL of every catalogue operation, key masked, nothing sent', async () => {
    expect(entries).toHaveLength(236);
    const failures: string[] = [];
    await pool(entries, 3, async (e) => {
      const { argv, path } = argvOf(e);
      const run = await h.voice([...argv, '--dry-run', '--json']);
      const label = `voice ${argv.join(' ')}`;
      if (run.exitCode !== 0) return void failures.push(`${label}: exit ${run.exitCode} ${run.stderr}`);
      const shown = json<Shown>(run);
      if (shown.method !== e.op.method) failures.push(`${label}: method ${shown.method} != ${e.op.method}`);
      if (shown.url !== `${h.emu.url}${path}`) failures.push(`${label}: url ${shown.url} != ${h.emu.url}${path}`);
      const auth = shown.headers.authorization;
      if (e.op.auth === 'bearer' && auth !== 'Bearer ****cdef') failures.push(`${label}: authorization ${auth}`);
      if (e.op.auth === 'none' && auth !== undefined) failures.push(`${label}: sends authorization on an open operation`);
    });
    expect(failures).toEqual([]);
    // Nothing was sent: even deletes were only printed.
    const list = await h.voice(['assistant', 'list', '--json']);
    expect(json(list)).toEqual([]);
  }, 180_000); // 236 processes on a shared machine

  it('prints a curl command with the body and the key masked', async () => {
    const run = await h.voice(['assistant', 'create', '--set', 'name=Front desk', '--set', 'maxDurationSeconds=600', '--dry-run']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`curl -X POST '${h.emu.url}/assistant'`);
    expect(run.stdout).toContain("-H 'authorization: Bearer ****cdef'");
    expect(run.stdout).toContain(`--data-raw '{"name":"Front desk","maxDurationSeconds":600}'`);
  });

  it('puts list flags into the query string', async () => {
    const run = await h.voice(['call', 'list', '--limit', '5', '--created-after', '2025-01-01', '--assistant-id', 'a1', '--query', 'costGe=2', '--dry-run', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const url = new URL(json<Shown>(run).url);
    expect(url.pathname).toBe('/call');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '5', createdAtGt: '2025-01-01', assistantId: 'a1', costGe: '2' });
    const paged = await h.voice(['v2', 'call', 'list', '--page', '2', '--sort', 'asc', '--id-any', 'a', '--id-any', 'b', '--dry-run', '--json']);
    expect(new URL(json<Shown>(paged).url).search).toBe('?idAny=a&idAny=b&page=2&sortOrder=ASC');
  });

  it('shows uploads as form fields', async () => {
    const run = await h.voice(['file', 'create', upload, '--set', 'purpose=assistant', '--dry-run']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(`-F 'file=@${upload}'`);
    expect(run.stdout).toContain("-F 'purpose=assistant'");
  });

  it('works for `voice api` and without a key', async () => {
    const run = await h.voice(['api', 'get', '/assistant?limit=2', '--query', 'name=x', '--dry-run', '--json'], { env: { VOICE_API_KEY: undefined } });
    expect(run.exitCode, run.stderr).toBe(0);
    const shown = json<Shown>(run);
    expect(shown.method).toBe('GET');
    expect(shown.url).toBe(`${h.emu.url}/assistant?limit=2&name=x`);
    expect(shown.headers.authorization).toBeUndefined();
  });
});
