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

function run(args: string[]): { child: ResultPromise; url: Promise<string> } {
  const child = execa(process.execPath, [BIN, 'demo', '--visitors', fixtures.file, ...args], { env, reject: false });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    void child.then((r) => reject(new Error(`voice demo exited ${r.exitCode}: ${String(r.stderr)}`)));
  });
  return { child, url };
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
