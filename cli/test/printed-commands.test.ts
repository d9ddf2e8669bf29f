// Every command `voice dev`, `voice dev ring`, `voice call say` and `voice demo` print for the user
// to run next is run here exactly as printed (by bash, with `voice` on PATH as the built CLI), on a
// machine without a saved key and on one with a saved key of the hosted platform.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '#core/emulator/calls/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';
import { runPrinted, voiceOnPath } from './printed.js';

const home = mkdtempSync(join(tmpdir(), 'voice-printed-'));
const shims = join(home, 'bin');
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

const path = voiceOnPath(shims);

/** A machine's environment: a fresh HOME, and with `saved` a profile holding a key (as `voice login` leaves it). */
function machine(name: string, saved: boolean): Record<string, string> {
  const dir = join(home, name);
  mkdirSync(join(dir, 'xdg', 'voice'), { recursive: true });
  if (saved) writeFileSync(join(dir, 'xdg', 'voice', 'config.json'), JSON.stringify({ profiles: { default: { apiKey: 'sk-saved-hosted-key-0000' } } }), { mode: 0o600 });
  return { PATH: path, HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), NO_COLOR: '1' };
}

const machines: [string, Record<string, string>][] = [];

beforeAll(() => {
  ensureBuilt();
  machines.push(['without a saved key', machine('fresh', false)], ['with a saved key', machine('saved', true)]);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const run = runPrinted;

/** The command a printed line names after `label` (to the end of the line, or before two spaces and a note). */
function printed(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.includes(label));
  if (!line) throw new Error(`nothing printed "${label}":\n${text}`);
  return (
    line
      .slice(line.indexOf(label) + label.length)
      .trim()
      .split(/\s{2,}/)[0] as string
  ).trim();
}

/** Collects a background process's stderr and waits for a line. */
function stderrOf(proc: { stderr: NodeJS.ReadableStream | null }): { text: () => string; seen: (label: string) => Promise<string> } {
  let text = '';
  proc.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  return { text: () => text, seen: (label) => until(() => (text.includes(label) && text.slice(text.indexOf(label)).includes('\n') ? text : undefined), 60_000) };
}

async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, { method, headers: auth, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await res.json()) as T;
}

describe('voice dev on a port of its own', () => {
  let dev: ResultPromise;
  let url: string;
  let banner: { text: () => string; seen: (label: string) => Promise<string> };

  beforeAll(async () => {
    // Its callers wait before speaking, so a call is still live when the test speaks on it.
    const scenario = join(home, 'wait.yaml');
    writeFileSync(scenario, 'turns:\n  - pauseSeconds: 600\n  - hangup: true\n');
    dev = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'dev', '--port', '0', '--speed', '10', '--scenario', scenario], {
      env: machine('dev', false),
      extendEnv: false,
      reject: false,
      cwd: home,
    });
    banner = stderrOf(dev);
    url = await firstLine(dev);
    await banner.seen('State:');
  }, 60_000);
  afterAll(async () => {
    dev?.kill('SIGINT');
    await dev;
  });

  it('prints CLI and curl lines that list its assistants as printed', async () => {
    const lines = [printed(banner.text(), 'CLI:'), printed(banner.text(), 'curl:')];
    await api(url, 'POST', '/assistant', { name: 'Printed' });
    for (const line of lines) {
      expect(line).toContain(url);
      for (const [name, env] of machines) {
        const r = await run(line, env);
        expect(r.exitCode, `${name}: ${line}\n${r.stderr}`).toBe(0);
        expect(r.stdout, `${name}: ${line}`).toContain('Printed');
      }
    }
  }, 60_000);

  it('rings, then follows the call and speaks on it with the commands ring and say print', async () => {
    const assistant = await api<{ id: string }>(url, 'POST', '/assistant', { name: 'Front desk', firstMessage: 'Hello, front desk.' });
    const number = await api<{ id: string }>(url, 'POST', '/phone-number', { provider: 'vapi', assistantId: assistant.id });
    const [, env] = machines[0] as [string, Record<string, string>];
    const ring = await run(`voice dev ring ${number.id} --api-url ${url}`, env);
    expect(ring.exitCode, String(ring.stderr)).toBe(0);
    const id = String(ring.stdout).trim();
    const follow = printed(String(ring.stderr), 'Follow it:');
    expect(follow).toContain(id);
    await until(async () => ((await api<{ status: string }>(url, 'GET', `/call/${id}`)).status === 'in-progress' ? true : undefined), 30_000);
    // Spoken on the call: the printed follow-up commands run while it is live and end with it.
    const say = await run(`voice call say ${id} "Hi, where is my parcel?" --api-url ${url} --local`, env);
    expect(say.exitCode, String(say.stderr)).toBe(0);
    const answer = printed(String(say.stderr), 'Follow the answer:');
    for (const command of [follow, answer])
      for (const [name, menv] of machines) {
        const r = await run(command, menv);
        expect(r.exitCode, `${name}: ${command}\n${r.stderr}`).toBe(0);
        expect(r.stdout, `${name}: ${command}`).toContain('Hi, where is my parcel?');
      }
  }, 180_000);

  it('names a listing command that runs as printed when ring or say is given an unknown id', async () => {
    const [, env] = machines[0] as [string, Record<string, string>];
    const ring = await run(`voice dev ring no-such-number --api-url ${url}`, env);
    const say = await run(`voice call say no-such-call Hello --local --api-url ${url}`, env);
    for (const [what, r, label] of [
      ['ring', ring, 'List them with:'],
      ['say', say, 'List calls with:'],
    ] as const) {
      expect(r.exitCode, what).toBe(1);
      const command = printed(String(r.stderr), label);
      expect(command, what).toContain(url);
      for (const [name, menv] of machines) {
        const listed = await run(command, menv);
        expect(listed.exitCode, `${name}: ${command}\n${listed.stderr}`).toBe(0);
      }
    }
  }, 60_000);

  it('prints a State line that resets it as printed', async () => {
    const state = printed(banner.text(), 'State:');
    for (const [name, env] of machines) {
      await api(url, 'POST', '/assistant', { name: 'Gone after reset' });
      const r = await run(state, env);
      expect(r.exitCode, `${name}: ${state}\n${r.stderr}`).toBe(0);
      expect(await api<unknown[]>(url, 'GET', '/assistant')).toEqual([]);
    }
  }, 60_000);
});

describe('voice dev with a required key', () => {
  it('prints a CLI line that lists its assistants as printed, with VOICE_API_KEY holding that key', async () => {
    const key = 'sk-required-local-key-0000';
    const dev = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'dev', '--port', '0', '--quiet', '--no-inspector', '--api-key', key], {
      env: machine('keyed', false),
      extendEnv: false,
      reject: false,
      cwd: home,
    });
    const banner = stderrOf(dev);
    try {
      const url = await firstLine(dev);
      const cli = printed(await banner.seen('CLI:'), 'CLI:');
      expect(cli).toContain(url);
      await fetch(`${url}/assistant`, { method: 'POST', headers: { ...auth, authorization: `Bearer ${key}` }, body: JSON.stringify({ name: 'Keyed' }) });
      for (const [name, env] of machines) {
        const r = await run(cli, { ...env, VOICE_API_KEY: key });
        expect(r.exitCode, `${name}: ${cli}\n${r.stderr}`).toBe(0);
        expect(r.stdout, name).toContain('Keyed');
      }
    } finally {
      dev.kill('SIGINT');
      await dev;
    }
  }, 60_000);
});

describe('voice demo', () => {
  it("npm start says which port its platform takes, beside the page's", async () => {
    const busy = createServer((_req, res) => void res.writeHead(404).end());
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const env = { ...machine('start', false), VOICE_DEMO_EMULATOR_PORT: String((busy.address() as AddressInfo).port), XDG_CACHE_HOME: join(home, 'cache') };
    // In a process group of its own: npm runs the demo under a shell, and a signal to npm alone would leave the demo running.
    const start = execa('npm', ['start', '--silent', '--', '--port', '0'], { env, extendEnv: false, reject: false, cwd: ROOT, detached: true });
    const lines = stderrOf(start);
    try {
      const page = new URL(await firstLine(start));
      const said = printed(await lines.seen('Local platform:'), 'Local platform:');
      const emulator = /on (http:\/\/127\.0\.0\.1:(\d+))/.exec(said);
      expect(said).toBe(`an emulator this demo runs on ${emulator?.[1]} (port ${emulator?.[2]}, beside the page's ${page.port}; it stops with the demo)`);
      expect((await fetch(`${emulator?.[1]}/__voice/health`)).ok).toBe(true);
    } finally {
      process.kill(-(start.pid as number), 'SIGINT');
      await start;
      busy.close();
    }
  }, 120_000);

  it('prints where its platform runs, and a Call Me line whose watch command follows the call as printed', async () => {
    // Its preferred port is held (by something that is no emulator), so it runs its emulator on a free one.
    const busy = createServer((_req, res) => void res.writeHead(404).end());
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const env = { ...machine('demo', false), VOICE_DEMO_EMULATOR_PORT: String((busy.address() as AddressInfo).port), XDG_CACHE_HOME: join(home, 'cache') };
    const demo = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'demo', '--slug', 'acme', '--port', '0'], { env, extendEnv: false, reject: false, cwd: home });
    const lines = stderrOf(demo);
    try {
      const page = await firstLine(demo);
      await lines.seen('Test in Browser');
      const calls = printed(lines.text(), 'Calls:');
      const busyLine = printed(lines.text(), 'list its calls with:');
      expect(busyLine).toBe(calls);
      const placed = await fetch(new URL('/__voice/call-me', page), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '+14155550123', slug: 'acme' }) });
      const { callId } = (await placed.json()) as { callId: string };
      const watch = printed(await lines.seen('follow it:'), 'follow it:');
      expect(watch).toContain(callId);
      const [, fresh] = machines[0] as [string, Record<string, string>];
      const listed = await run(calls, fresh);
      expect(listed.exitCode, `${calls}\n${listed.stderr}`).toBe(0);
      expect(listed.stdout).toContain(callId);
      // Once the watch follows the call (its first line), the customer hangs up: the watch ends with the call.
      const watching = run(watch, fresh);
      let followed = '';
      watching.stdout?.on('data', (c: Buffer) => (followed += c.toString()));
      await until(() => (followed ? true : undefined), 60_000);
      const emulator = /--api-url (\S+)/.exec(calls)?.[1] as string;
      await api(emulator, 'POST', `/__voice/calls/${callId}/end`, { by: 'customer' });
      const r = await watching;
      expect(r.exitCode, `${watch}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('customer-ended-call');
    } finally {
      demo.kill('SIGINT');
      await demo;
      busy.close();
    }
  }, 240_000);
});
