// `voice dev` as a test fixture, through the real bin/voice.js: exec passes the command's exit
// code through, export/import round-trips, reset during running calls delivers nothing after it,
// --apply gives the UUIDs `voice plan` finds unchanged, readiness, snapshots, Ctrl-C.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHook, until } from '#core/emulator/calls/testing';
import { verifyServerMessage } from 'voice-agent-core/verify';
import type { AuthenticationPlan } from 'voice-agent-core/verify';
import { devServer } from './dev-server.js';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const CLIENT = join(ROOT, 'core', 'dist', 'client-node.js');
const home = mkdtempSync(join(tmpdir(), 'voice-dev-fixture-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

function voice(args: string[], extra: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, cwd: home, timeout: 60_000 });
}

/** Starts `voice dev` in the background and resolves with its URL (the first stdout line). */
async function background(args: string[]): Promise<{ url: string; proc: ResultPromise }> {
  const proc = execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', ...args], { env, extendEnv: false, reject: false, cwd: home });
  const url = await firstLine(proc);
  return { url, proc };
}

/** A script that uses the built REST client against the emulator exec started, then exits with `code`. */
const clientScript = (code: number): string =>
  `const { createClient } = await import(${JSON.stringify(CLIENT)});
   const c = createClient({ baseUrl: process.env.VOICE_API_URL, apiKey: process.env.VOICE_API_KEY });
   const a = await c.assistant.create({ name: 'From exec' });
   const all = await c.assistant.list();
   if (!all.some((x) => x.id === a.id)) process.exit(9);
   console.log('assistant ' + a.id);
   process.exit(${code});`;

describe('voice dev exec', () => {
  it('runs the command against a fresh emulator and exits with its code (0 and 3)', async () => {
    const ok = await voice(['dev', 'exec', '--', process.execPath, '--input-type=module', '-e', clientScript(0)]);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(String(ok.stdout)).toMatch(/^assistant [0-9a-f-]{36}$/);
    const three = await voice(['dev', 'exec', '--', process.execPath, '--input-type=module', '-e', clientScript(3)]);
    expect(three.exitCode).toBe(3);
    expect(String(three.stderr)).not.toMatch(/Error/);
    const missing = await voice(['dev', 'exec', '--', 'no-such-command-xyz']);
    expect(missing.exitCode).toBe(127);
  });

  it('--export-on-exit then --import round-trips every resource and ended call', async () => {
    const file = join(home, 'state.json');
    const script = `const h = { authorization: 'Bearer ' + process.env.VOICE_API_KEY, 'content-type': 'application/json' };
      const u = process.env.VOICE_API_URL;
      const post = (p, b) => fetch(u + p, { method: 'POST', headers: h, body: JSON.stringify(b) }).then((r) => r.json());
      const a = await post('/assistant', { name: 'Round trip', firstMessage: 'Hello.' });
      await post('/tool', { type: 'function', function: { name: 'lookup' } });
      const pn = (await fetch(u + '/phone-number', { headers: h }).then((r) => r.json()))[0];
      const call = await post('/call', { assistantId: a.id, phoneNumberId: pn.id, customer: { number: '+15550100005' } });
      for (;;) { const c = await fetch(u + '/call/' + call.id, { headers: h }).then((r) => r.json()); if (c.status === 'ended') break; await new Promise((r) => setTimeout(r, 20)); }`;
    const first = await voice(['dev', 'exec', '--seed', '--speed', '1000', '--export-on-exit', file, '--', process.execPath, '--input-type=module', '-e', script]);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { collections: Record<string, { id: string; status?: string }[]> };
    expect(exported.collections.assistant?.length).toBe(3);
    expect(exported.collections.call?.filter((c) => c.status === 'ended').length).toBeGreaterThanOrEqual(1);
    const again = join(home, 'again.json');
    const second = await voice(['dev', 'exec', '--import', file, '--export-on-exit', again, '--', process.execPath, '-e', '0']);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(JSON.parse(readFileSync(again, 'utf8'))).toEqual(exported);
    // And a client sees every imported object.
    const { url, proc } = await background(['--import', file]);
    for (const [name, recs] of Object.entries(exported.collections)) {
      if (!['assistant', 'tool', 'call', 'squad', 'phone-number'].includes(name)) continue;
      const listed = (await (await fetch(`${url}/${name}`, { headers: auth })).json()) as { id: string }[];
      expect(listed.map((r) => r.id).sort()).toEqual(recs.map((r) => r.id).sort());
    }
    proc.kill('SIGINT');
    await proc;
  });
});

describe('reset, snapshots and readiness of a running voice dev', () => {
  it('reset during 10 running calls cancels them: no delivery after it, back to the start', async () => {
    const hook = await startHook();
    const ready = join(home, 'ready.txt');
    const { url, proc } = await background(['--seed', '--ready-file', ready]);
    try {
      expect(readFileSync(ready, 'utf8')).toBe(`${url}\n`);
      expect((await fetch(`${url}/__voice/health`)).status).toBe(200);
      const assistant = (await (
        await fetch(`${url}/assistant`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: 'R', firstMessage: 'Hello there, how can I help you today?', server: { url: `${hook.url}/hook` } }),
        })
      ).json()) as { id: string };
      const pn = ((await (await fetch(`${url}/phone-number`, { headers: auth })).json()) as { id: string }[])[0] as { id: string };
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const call = (await (
          await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ assistantId: assistant.id, phoneNumberId: pn.id, customer: { number: '+15555550123' } }) })
        ).json()) as { id: string };
        ids.push(call.id);
      }
      await until(() => (ids.every((id) => hook.types(id).length > 0) ? true : undefined), 15_000).catch(async (e: Error) => {
        throw new Error(
          `${e.message}: ${hook.received.length} received; ${JSON.stringify(((await (await fetch(`${url}/__voice/deliveries`)).json()) as { error?: string; status?: number }[]).map((d) => [d.status, d.error]).slice(0, 5))}`,
        );
      });
      const health = (await (await fetch(`${url}/__voice/health`)).json()) as { activeCalls: number };
      expect(health.activeCalls).toBe(10);
      // The global option before the command reaches `dev reset`'s own --api-url.
      const reset = await voice(['--api-url', url, 'dev', 'reset']);
      expect(reset.exitCode, String(reset.stderr)).toBe(0);
      expect(JSON.parse(String(reset.stdout))).toMatchObject({ cancelledCalls: 10 });
      const seen = hook.received.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(hook.received.length).toBe(seen);
      const calls = (await (await fetch(`${url}/call`, { headers: auth })).json()) as { id: string }[];
      expect(calls.some((c) => ids.includes(c.id))).toBe(false);
      expect(((await (await fetch(`${url}/assistant`, { headers: auth })).json()) as unknown[]).length).toBe(2);
      expect(await (await fetch(`${url}/__voice/deliveries`)).json()).toEqual([]);
    } finally {
      proc.kill('SIGINT');
      await proc;
      await hook.close();
    }
  });

  it("refuses voice dev's server options (exit 2, naming --api-url) and keeps them out of the help", async () => {
    const port = await voice(['dev', 'reset', '--port', '4710']);
    expect(port.exitCode).toBe(2);
    expect(String(port.stderr)).toContain('--api-url http://127.0.0.1:4710');
    for (const args of [
      ['dev', '--seed', 'snapshot', 'save', 'x'],
      ['dev', 'snapshot', 'list', '--speed', '5'],
      ['dev', 'ring', 'pn-1', '--no-inspector'],
    ]) {
      const run = await voice(args);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(String(run.stderr)).toMatch(/is an option of `voice dev`.*\n.*--api-url http:\/\/127\.0\.0\.1:PORT/);
    }
    for (const args of [
      ['dev', 'reset', '--help'],
      ['dev', 'snapshot', 'restore', '--help'],
      ['dev', 'ring', '--help'],
    ]) {
      const help = String((await voice(args)).stdout);
      expect(help).toContain('--api-url <url>');
      // No option line for a server option (the text may still mention `voice dev --port N`).
      for (const flag of ['--port', '--speed', '--seed', '--data', '--scenario', '--no-inspector']) expect(help, args.join(' ')).not.toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
  });

  it('saves and restores named snapshots; Ctrl-C writes --export-on-exit', async () => {
    const out = join(home, 'on-exit.json');
    const { url, proc } = await background(['--export-on-exit', out]);
    const create = (name: string) => fetch(`${url}/assistant`, { method: 'POST', headers: auth, body: JSON.stringify({ name }) });
    await create('one');
    expect((await voice(['dev', 'snapshot', 'save', 'after-one', '--api-url', url])).exitCode).toBe(0);
    await create('two');
    const restored = await voice(['dev', 'snapshot', 'restore', 'after-one', '--api-url', url]);
    expect(restored.exitCode, String(restored.stderr)).toBe(0);
    const names = ((await (await fetch(`${url}/assistant`, { headers: auth })).json()) as { name: string }[]).map((a) => a.name);
    expect(names).toEqual(['one']);
    const unknown = await voice(['dev', 'snapshot', 'restore', 'nope', '--api-url', url]);
    expect(unknown.exitCode).toBe(1);
    expect(String(unknown.stderr)).toMatch(/No snapshot named "nope"/);
    proc.kill('SIGINT');
    const r = await proc;
    expect(r.exitCode).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { collections: { assistant: { name: string }[] } }).collections.assistant.map((a) => a.name)).toEqual(['one']);
  });

  it('Ctrl-C on exec stops the command and the emulator', async () => {
    const pidFile = join(home, 'child.pid');
    const proc = execa(
      process.execPath,
      [BIN, 'dev', 'exec', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000)`],
      { env, extendEnv: false, reject: false, cwd: home },
    );
    const pid = await until(() => (existsSync(pidFile) && readFileSync(pidFile, 'utf8') ? Number(readFileSync(pidFile, 'utf8')) : undefined), 15_000);
    proc.kill('SIGINT');
    const r = await proc;
    expect(r.exitCode).toBe(130);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('voice dev --apply', () => {
  it('applies the config-as-code example; `voice plan` against it finds every UUID unchanged', async () => {
    const dir = join(home, 'resources');
    cpSync(join(ROOT, 'fixtures', 'gitops', 'starter'), dir, { recursive: true });
    const { url, proc } = await background(['--apply', dir]);
    try {
      const applied = (await (await fetch(`${url}/__voice/applied`)).json()) as Record<string, Record<string, string>>;
      const assistants = Object.values(applied.assistants ?? {});
      expect(assistants.length).toBeGreaterThan(0);
      for (const uuid of assistants) expect((await fetch(`${url}/assistant/${uuid}`, { headers: auth })).status).toBe(200);
      // The whole example, squads included.
      const squads = Object.values(applied.squads ?? {});
      expect(squads.length).toBeGreaterThan(0);
      for (const uuid of squads) expect((await fetch(`${url}/squad/${uuid}`, { headers: auth })).status).toBe(200);
      const plan = await voice(['plan', '--dir', dir], { VOICE_API_URL: url, VOICE_API_KEY: 'any-key' });
      expect(plan.exitCode, String(plan.stderr)).toBe(0);
      expect(String(plan.stdout) + String(plan.stderr)).toMatch(/Plan: 0 to create, 0 to update, 0 to delete|No changes/);
      // voice dev prints the map too (exec: the same start, on its own free port).
      // exec's throwaway emulator leaves no state file in the folder, and its temporary one is removed.
      const states = (): string[] => readdirSync(dir).filter((f) => f.startsWith('.voice-state.'));
      const before = states();
      expect(before).toHaveLength(1);
      const tmp = mkdtempSync(join(home, 'tmp-'));
      const printed = await voice(['dev', 'exec', '--apply', dir, '--', process.execPath, '-e', 'process.exit(require("fs").readdirSync(process.env.TMPDIR).length ? 0 : 7)'], { TMPDIR: tmp });
      expect(printed.exitCode, String(printed.stderr)).toBe(0);
      expect(String(printed.stderr)).toMatch(/assistants\/[\w-]+ -> [0-9a-f-]{36}/);
      expect(states()).toEqual(before);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      proc.kill('SIGINT');
      await proc;
    }
  });
});

describe('signed deliveries from voice dev', () => {
  it.each<AuthenticationPlan>([
    { type: 'bearer', token: 'dev-token-1' },
    { type: 'hmac', secretKey: 'dev-hmac-1', algorithm: 'sha256', signaturePrefix: 'v1=', signatureHeader: 'x-vapi-signature' },
  ])('a server naming a $type credential gets deliveries the exported verifier accepts (and not tampered or stale)', async (plan) => {
    const app = await devServer();
    const { url, proc } = await background(['--speed', '1000']);
    try {
      const post = async (path: string, body: unknown): Promise<string> =>
        ((await (await fetch(`${url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string }).id;
      const credentialId = await post('/credential', { provider: 'webhook', authenticationPlan: plan });
      const assistantId = await post('/assistant', { name: 'S', firstMessage: 'Hi.', server: { url: `${app.url}/hook`, credentialId } });
      const phoneNumberId = await post('/phone-number', { provider: 'vapi', name: 'P' });
      await post('/call', { assistantId, phoneNumberId, customer: { number: '+15550100005' } });
      await until(() => (app.got.some((g) => g.raw.includes('end-of-call-report')) ? true : undefined), 15_000);
      expect(app.got.length).toBeGreaterThan(2);
      for (const g of app.got) expect(await verifyServerMessage({ body: g.raw, headers: g.headers as Record<string, string>, plan })).toEqual({ valid: true });
      const first = app.got[0] as { raw: string; headers: Record<string, string> };
      const tampered = await verifyServerMessage({ body: first.raw.replace('"status"', '"statuz"'), headers: first.headers, plan });
      if (plan.type === 'hmac') {
        expect(tampered.valid).toBe(false);
        const stale = await verifyServerMessage({ body: first.raw, headers: first.headers, plan, now: Number(first.headers['x-timestamp']) + 3600 });
        expect(stale.valid).toBe(false);
      } else {
        expect(first.headers.authorization).toBe('Bearer dev-token-1');
        expect((await verifyServerMessage({ body: first.raw, headers: { ...first.headers, authorization: 'Bearer dev-token-2' }, plan })).valid).toBe(false);
      }
    } finally {
      proc.kill('SIGINT');
      await proc;
      await app.close();
    }
  });
});
