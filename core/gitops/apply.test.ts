// Parallel creates against a fake platform whose answers come back out of order: results in the
// plan's order, never more than `concurrency` requests at once, and a create failing in the
// middle stops the run with every create that did succeed (before it or still in flight) in the
// state file and in the error; nothing made on the platform is left out of the state.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../client/index.js';
import { apply } from './apply.js';
import { ApplyError } from './errors.js';
import { render } from './format.js';
import { plan } from './plan.js';

const tmp = mkdtempSync(join(tmpdir(), 'voice-apply-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A platform that creates after a varying delay, failing the creates named in `fail`. */
function fakePlatform(fail: readonly string[] = []): { client: Client; made: Map<string, string>; peak: () => number; started: string[]; startedAtFailure: () => number } {
  const made = new Map<string, string>();
  const started: string[] = [];
  let inFlight = 0;
  let peak = 0;
  let n = 0;
  let startedAtFailure = -1;
  const create = async (body: { name: string }): Promise<unknown> => {
    const i = n++;
    started.push(body.name);
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      // Later requests often answer first.
      await sleep([7, 1, 4, 0, 9, 2][i % 6] as number);
      if (fail.includes(body.name)) {
        startedAtFailure = started.length;
        throw new Error(`400 Bad Request: ${body.name} refused`);
      }
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      made.set(body.name, id);
      return { id, ...body };
    } finally {
      inFlight--;
    }
  };
  // A list answers every object made; a create goes through `create`.
  const invoke = (op: { method: string }, _path: readonly string[], body: { name: string }): unknown =>
    op.method === 'GET' ? [...made].map(([name, id]) => ({ id, name })) : op.method === 'POST' ? create(body) : Promise.reject(new Error(`unexpected ${op.method}`));
  return { client: { invoke } as unknown as Client, made, peak: () => peak, started, startedAtFailure: () => startedAtFailure };
}

function project(name: string, count: number): { dir: string; statePath: string } {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'assistants'), { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, 'assistants', `a${String(i).padStart(3, '0')}.yml`), render({ name: `a${String(i).padStart(3, '0')}`, firstMessage: 'Hi' }, 'yml'));
  return { dir, statePath: join(dir, '.voice-state.test.json') };
}

function stateOf(path: string): Record<string, { uuid: string }> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { assistants: Record<string, { uuid: string }> }).assistants;
}

describe('apply', () => {
  it('creates in parallel, at most `concurrency` at once, and reports what it did in the plan order', async () => {
    const { dir, statePath } = project('parallel', 40);
    const platform = fakePlatform();
    const p = await plan({ client: platform.client, dir, statePath });
    const seen: string[] = [];
    const result = await apply({ client: platform.client, plan: p, concurrency: 5, onChange: (d) => seen.push(d.id) });
    expect(platform.peak()).toBe(5);
    const ids = p.items.map((i) => i.id);
    expect(result.done.map((d) => d.id)).toEqual(ids);
    expect(seen).not.toEqual(ids);
    expect(seen.sort()).toEqual(ids);
    expect(result.counts).toEqual({ create: 40, update: 0, delete: 0 });
    expect(Object.fromEntries(Object.entries(stateOf(statePath)).map(([id, e]) => [id, e.uuid]))).toEqual(Object.fromEntries(platform.made));
    for (const d of result.done) expect(d.uuid).toBe(platform.made.get(d.id));
  });

  it('keeps the state in memory only when the plan has no state file (a throwaway platform)', async () => {
    const { dir } = project('memory', 6);
    const platform = fakePlatform();
    const p = await plan({ client: platform.client, dir });
    expect(p.counts.create).toBe(6);
    await apply({ client: platform.client, plan: p });
    expect(Object.fromEntries(Object.entries(p.state.sections.assistants ?? {}).map(([id, e]) => [id, e.uuid]))).toEqual(Object.fromEntries(platform.made));
    expect(readdirSync(dir).sort()).toEqual(['assistants']);
  });

  it('stops at a failing create; what succeeded before it or while it failed is in the state and in the error', async () => {
    const { dir, statePath } = project('failing', 60);
    const platform = fakePlatform(['a030']);
    const p = await plan({ client: platform.client, dir, statePath });
    const error = await apply({ client: platform.client, plan: p, concurrency: 8 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApplyError);
    const failed = error as ApplyError;
    expect(failed.failed).toEqual({ action: 'create', kind: 'assistants', id: 'a030' });
    expect(failed.message).toContain('a030 refused');
    // Nothing new starts once the failure is known: only the requests already in flight finish.
    expect(platform.startedAtFailure()).toBeGreaterThan(31);
    expect(platform.started.length).toBe(platform.startedAtFailure());
    expect(platform.made.size).toBe(platform.started.length - 1);
    // Every resource made on the platform is in the state file and in the error, in plan order.
    const recorded = stateOf(statePath);
    expect(Object.keys(recorded).sort()).toEqual([...platform.made.keys()].sort());
    for (const [id, uuid] of platform.made) expect(recorded[id]?.uuid).toBe(uuid);
    expect(failed.done.map((d) => d.id)).toEqual([...platform.made.keys()].sort());

    // The next apply creates only what is missing.
    const resumed = await plan({ client: platform.client, dir, statePath });
    expect(resumed.counts.create).toBe(60 - platform.made.size);
  });
});
