// `voice dev speed N` through the real bin/voice.js: a running emulator's clock changes speed
// live, calls under way included; a speed that is no speed is a usage error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHook, until } from '#core/emulator/calls/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const home = mkdtempSync(join(tmpdir(), 'voice-dev-speed-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

function voice(args: string[]) {
  return execa(process.execPath, [BIN, ...args], { env, extendEnv: false, reject: false, cwd: home, timeout: 60_000 });
}

describe('voice dev speed', () => {
  it('speeds up a call already under way, and refuses a speed that is no speed (exit 2)', async () => {
    const hook = await startHook();
    // At 0.01x the call's first wait alone would last 50 seconds.
    const proc = execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', '--speed', '0.01'], { env, extendEnv: false, reject: false, cwd: home });
    try {
      const url = await firstLine(proc);
      const call = (await (
        await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ customer: { number: '+15555550123' }, assistant: { name: 'S', server: { url: hook.url } } }) })
      ).json()) as { id: string };
      const fast = await voice(['dev', 'speed', '1000', '--api-url', url]);
      expect(fast.exitCode, String(fast.stderr)).toBe(0);
      expect(JSON.parse(String(fast.stdout))).toEqual({ speed: 1000, was: 0.01, activeCalls: 1 });
      expect(String(fast.stderr)).toContain(`Calls at ${url} now run at 1000x (were 0.01x; 1 under way)`);
      await until(async () => {
        const got = (await (await fetch(`${url}/call/${call.id}`, { headers: auth })).json()) as { status: string; endedReason?: string };
        return got.status === 'ended' ? got : undefined;
      }, 30_000).then((got) => expect(got.endedReason).toBe('customer-ended-call'));
      for (const bad of ['0', 'fast', '20000']) {
        const refused = await voice(['dev', 'speed', bad, '--api-url', url]);
        expect(refused.exitCode, bad).toBe(2);
        expect(String(refused.stderr)).toMatch(/above 0, at most 10000/);
      }
      expect(((await (await fetch(`${url}/__voice/info`)).json()) as { speed: number }).speed).toBe(1000);
    } finally {
      proc.kill('SIGINT');
      await proc;
      await hook.close();
    }
  }, 120_000);
});
