// `voice demo` as a real process through bin/voice.js: prints the URL, serves the page, a busy
// port is a clear error, Ctrl-C stops cleanly, and a Call Me call shows up in `voice call list`.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from 'voice-agent-core/emulator';
import { visitorsFile } from './demo-harness.js';

const BIN = new URL('../../bin/voice.js', import.meta.url).pathname;
// Runs the built CLI (dist/, from `npm run build`, which `npm test` runs first).

let fixtures: ReturnType<typeof visitorsFile>;
let emulator: Emulator;
const env = { VOICE_API_KEY: '', VAPI_API_KEY: '', VAPI_TOKEN: '', XDG_CONFIG_HOME: '/nonexistent', NO_COLOR: '1' };

beforeAll(async () => {
  fixtures = visitorsFile();
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator.close();
  fixtures.cleanup();
});

function run(args: string[]): { child: ResultPromise; url: Promise<string>; stderr: () => string } {
  const child = execa(process.execPath, [BIN, 'demo', '--visitors', fixtures.file, ...args], { env, reject: false });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d));
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    void child.then((r) => reject(new Error(`voice demo exited ${r.exitCode}: ${String(r.stderr)}`)));
  });
  return { child, url, stderr: () => stderr };
}

/** Presses Call Me as the page does; returns the placed call's id. */
async function callMe(page: string, phone: string): Promise<string> {
  const res = await fetch(new URL('/__voice/call-me', page), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone, slug: 'acme' }) });
  const body = (await res.json()) as { callId?: string; message?: string };
  expect(res.status, body.message).toBe(200);
  return body.callId as string;
}

/** The call once ended: why, and the assistant's first spoken line. */
async function ended(emu: Emulator, callId: string): Promise<{ endedReason: unknown; firstLine: unknown }> {
  const call = await emu.waitForCall(callId, 'ended', { timeoutMs: 60_000 });
  const messages = (call.artifact as { messages?: { role: string; message?: string }[] } | undefined)?.messages ?? [];
  return { endedReason: call.endedReason, firstLine: messages.find((m) => m.role === 'bot')?.message };
}

/** A loopback port nothing listens on (just released). */
async function freePort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('voice demo (process)', () => {
  it('prints the URL, serves the page, places a Call Me call that `voice call list` shows, stops on Ctrl-C', async () => {
    const { child, url } = run(['--slug', 'acme', '--port', '0', '--api-url', emulator.url]);
    const page = await url;
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acme$/);
    expect((await fetch(page)).status).toBe(200);
    const res = await fetch(new URL('/__voice/call-me', page), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '+14155550199', slug: 'acme' }) });
    expect(res.status).toBe(200);
    const list = await execa(process.execPath, [BIN, 'call', 'list', '--json', '--api-url', emulator.url, '--api-key', 'any'], { env });
    const calls = JSON.parse(list.stdout) as { customer?: { number?: string }; assistantOverrides?: { firstMessage?: string } }[];
    expect(calls.find((c) => c.customer?.number === '+14155550199')?.assistantOverrides?.firstMessage).toBe('Hello, this is Acme.');
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).not.toMatch(/\bat .+:\d+:\d+/);
    // No browser-call keys: Test in Browser runs on the emulator --api-url names, and says so.
    expect(String(result.stderr)).toContain(`Test in Browser runs on the local emulator at ${emulator.url}`);
    expect(String(result.stderr)).not.toContain('Test in Browser needs');
  });

  it("places a Call Me call that runs: the demo's assistant speaks the visitor's first message, and the terminal says how to follow it", async () => {
    // A fast clock: the whole simulated call takes a second or two.
    const fast = await startEmulator({ port: 0, speed: 50 });
    const { child, url, stderr } = run(['--slug', 'acme', '--port', '0', '--api-url', fast.url]);
    try {
      const id = await callMe(await url, '+14155550111');
      expect(await ended(fast, id)).toEqual({ endedReason: expect.not.stringMatching(/start-error|get-assistant/), firstLine: 'Hello, this is Acme.' });
      const call = (await fast.client.call.get(id)) as { assistantId?: string; assistant?: { model?: { messages?: unknown[] } } };
      const assistant = (await fast.client.assistant.get(call.assistantId as string)) as { name?: string };
      expect(assistant.name).toBe('voice demo (local)');
      await expect.poll(stderr).toContain(`call ${id} placed to +14155550111 for "acme" via ${fast.url}; follow it: voice call watch ${id} --local --api-url ${fast.url}`);
    } finally {
      child.kill('SIGINT');
      await child;
      await fast.close();
    }
  });

  it('finds an emulator started after it, and again after that emulator restarts', async () => {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    const { child, url, stderr } = run(['--slug', 'acme', '--port', '0', '--api-url', apiUrl]);
    let emu: Emulator | undefined;
    try {
      const page = await url;
      // The banner says what it will use, and that nothing answers there yet.
      expect(stderr()).toContain(`Call Me places calls via ${apiUrl}`);
      expect(stderr()).toContain(`The emulator at ${apiUrl} does not answer yet`);
      expect(stderr()).toContain(`Test in Browser runs on the local emulator at ${apiUrl}`);
      for (const round of [1, 2]) {
        emu = await startEmulator({ port, speed: 50 });
        const id = await callMe(page, `+1415555012${round}`);
        expect(await ended(emu, id)).toMatchObject({ firstLine: 'Hello, this is Acme.' });
        // Test in Browser's assistant is the one on the emulator now running.
        const res = await fetch(new URL('/__voice/local-assistant', page));
        expect(res.status).toBe(200);
        const { assistantId } = (await res.json()) as { assistantId: string };
        expect(await emu.client.assistant.get(assistantId)).toMatchObject({ name: 'voice demo (local)' });
        await emu.close();
        emu = undefined;
      }
      // With nothing there, the page is told why (and the terminal too).
      const down = await fetch(new URL('/__voice/local-assistant', page));
      expect(down.status).toBe(503);
      expect(((await down.json()) as { message: string }).message).toContain(`nothing answers at ${apiUrl}`);
    } finally {
      child.kill('SIGINT');
      await child;
      await emu?.close();
    }
  });

  it('says which port is busy and how to choose another', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const result = await execa(process.execPath, [BIN, 'demo', '--port', String(port), '--webhook-url', 'http://127.0.0.1:9/x'], { env, reject: false });
    await new Promise((resolve) => blocker.close(resolve));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
    expect(result.stderr).toContain('--port');
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
