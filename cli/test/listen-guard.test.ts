// Who may post to `voice listen`, through the built CLI: no web page (an Origin, a cross-site
// fetch, a rebound Host: 403, nothing forwarded), and with --secret or --credential only senders
// holding the secret or signing with the credential (401 otherwise); a signed message may come
// through a tunnel under any Host name, an unsigned one only under --allow-host names.
import { request } from 'node:http';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './build.js';
import { devServer } from './dev-server.js';
import type { DevServer } from './dev-server.js';
import { captured, fileHarness } from './harness.js';

const h = fileHarness();
const SECRET = 'listen-secret-0123456789';
let app: DevServer;
const running: ResultPromise[] = [];

beforeAll(async () => {
  app = await devServer(() => ({ body: {} }));
});
afterAll(async () => {
  for (const child of running) child.kill('SIGINT');
  await Promise.all(running);
  await app?.close();
});

/** Starts `voice listen`; resolves with its URL and what it printed. */
async function listen(args: string[], env: Record<string, string> = {}): Promise<{ url: string; output: () => string }> {
  const child = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'listen', '--port', '0', '--forward-to', `${app.url}/hook`, '--json', ...args], {
    env: { ...h.current.env, ...env },
    extendEnv: false,
    reject: false,
    cwd: h.current.home,
    timeout: 60_000,
  });
  running.push(child);
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve(m[1] as string);
    });
    void child.then(() => reject(new Error(`voice listen ended early: ${text}`)));
  });
  return {
    url,
    output: () => {
      captured.push(text);
      return text;
    },
  };
}

const MESSAGE = JSON.stringify({ message: { type: 'status-update', status: 'in-progress', call: { id: 'c1' } } });

function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(MESSAGE);
  });
}

describe('voice listen, guarded', () => {
  it('refuses web pages and rebound Host names, and takes the platform, under --allow-host names too (a tunnel)', async () => {
    const l = await listen(['--allow-host', 'abc.ngrok-free.app']);
    const before = app.got.length;
    expect(await post(l.url, { origin: 'https://evil.example' })).toBe(403);
    expect(await post(l.url, { origin: 'https://evil.example', 'content-type': 'text/plain' })).toBe(403);
    expect(await post(l.url, { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await post(l.url, { host: 'evil.example:4242' })).toBe(403);
    expect(await post(l.url, { host: 'other.ngrok-free.app' })).toBe(403);
    expect(app.got.length).toBe(before);
    expect(await post(l.url, {})).toBe(200);
    expect(await post(l.url, { host: 'abc.ngrok-free.app' })).toBe(200);
    expect(app.got.length).toBe(before + 2);
    const lines = l.output();
    expect(lines).toContain('"refused":"Origin https://evil.example may not call voice listen');
    expect(lines).toContain('--allow-host evil.example');
    expect(lines).toContain('Web pages may not post here');
  });

  it('with --secret (or VOICE_WEBHOOK_SECRET) takes only messages carrying it, under any Host; never prints it', async () => {
    const l = await listen([], { VOICE_WEBHOOK_SECRET: SECRET });
    const before = app.got.length;
    expect(await post(l.url, {})).toBe(401);
    expect(await post(l.url, { 'x-vapi-secret': 'not-the-secret' })).toBe(401);
    expect(await post(l.url, { 'x-vapi-secret': SECRET })).toBe(200);
    expect(await post(l.url, { authorization: `Bearer ${SECRET}`, host: 'abc.ngrok-free.app' })).toBe(200);
    expect(await post(l.url, { 'x-vapi-secret': SECRET, origin: 'https://evil.example' })).toBe(403);
    expect(app.got.length).toBe(before + 2);
    const lines = l.output();
    expect(lines).toContain('Taking only messages carrying the secret');
    expect(lines).not.toContain(SECRET);
  });

  it("with --credential takes only messages signed with the webhook credential's plan", async () => {
    const credential = (await h.current.emu.client.credential.create({ provider: 'webhook', authenticationPlan: { type: 'hmac', secretKey: SECRET, algorithm: 'sha256' } } as never)) as { id: string };
    const l = await listen(['--credential', credential.id]);
    const signed = await h.current.voice(['trigger', 'status-update', '--forward-to', `${l.url}/hook`, '--credential', credential.id]);
    expect(signed.exitCode, signed.stderr + signed.stdout).toBe(0);
    const unsigned = await h.current.voice(['trigger', 'status-update', '--forward-to', `${l.url}/hook`]);
    expect(unsigned.exitCode).toBe(1);
    expect(unsigned.stdout + unsigned.stderr).toContain('401');
    expect(l.output()).not.toContain(SECRET);
  });
});
