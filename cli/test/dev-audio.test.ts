// `voice dev` with sound through the real bin/voice.js (voice-agent-audio stays outside the
// bundles and is loaded when the first call needs it): `voice call say ID --dtmf 12#` presses keys
// on a live call, they become a keypad turn and their tones are in the recording, which lasts the
// whole call; with --no-audio the banner and the call's summary say audio is off and how to turn it on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, detectDtmf } from 'voice-agent-audio';
import { startHook, until } from '#core/emulator/calls/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const home = mkdtempSync(join(tmpdir(), 'voice-dev-audio-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

function dev(args: string[]) {
  return execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', ...args], { env, extendEnv: false, reject: false, cwd: home });
}

async function ended(url: string, id: string): Promise<Record<string, unknown>> {
  return until(async () => {
    const call = (await (await fetch(`${url}/call/${id}`, { headers: auth })).json()) as Record<string, unknown>;
    return call.status === 'ended' ? call : undefined;
  }, 60_000);
}

describe('voice dev with sound', () => {
  it('voice call say ID --dtmf 12# presses keys on a live call: a keypad turn, tones in the recording, which is the whole call', async () => {
    const scenario = join(home, 'waits.yaml');
    // The customer says nothing for an hour of the call's time: the keys said live come first.
    writeFileSync(scenario, 'turns:\n  - pauseSeconds: 3600\n    say: Bye.\n');
    const hook = await startHook();
    const proc = dev(['--speed', '20', '--scenario', scenario]);
    try {
      const url = await firstLine(proc);
      const assistant = {
        name: 'Desk',
        firstMessage: 'Enter your code.',
        keypadInputPlan: { enabled: true, delimiters: '#' },
        server: { url: hook.url },
        serverMessages: ['speech-update', 'conversation-update'],
      };
      const call = (await (await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant, customer: { number: '+14155550100' } }) })).json()) as { id: string };
      // The first message has been said: the customer is in their pause.
      await until(() => (hook.received.some((r) => r.message.type === 'speech-update' && r.message.status === 'stopped') ? true : undefined), 60_000);
      const say = await execa(process.execPath, [BIN, 'call', 'say', call.id, '--dtmf', '12#', '--api-url', url], { env, extendEnv: false, reject: false, cwd: home });
      expect(say.exitCode, String(say.stderr)).toBe(0);
      const keypad = (r: { message: Record<string, unknown> }): boolean => r.message.type === 'conversation-update' && JSON.stringify(r.message).includes("User's Keypad Entry: 12");
      await until(() => (hook.received.some(keypad) ? true : undefined), 60_000);
      await fetch(`${url}/__voice/calls/${call.id}/end`, { method: 'POST', headers: auth, body: JSON.stringify({ by: 'customer' }) });
      const done = await ended(url, call.id);
      const seconds = (Date.parse(String(done.endedAt)) - Date.parse(String(done.startedAt))) / 1000;
      const get = async (kind: string) => decodeWav(new Uint8Array(await (await fetch(`${url}/call/${call.id}/${kind}-recording`, { headers: auth })).arrayBuffer()));
      const customer = await get('customer');
      expect(customer.sampleRate).toBe(16000);
      expect(
        detectDtmf(customer)
          .map((k) => k.key)
          .join(''),
      ).toBe('12#');
      const stereo = await get('stereo');
      expect(stereo.channels).toBe(2);
      expect(Math.abs(stereo.samples.length / 2 / stereo.sampleRate - seconds)).toBeLessThan(0.2);
    } finally {
      proc.kill('SIGINT');
      const out = await proc;
      expect(String(out.stderr)).toContain('Audio:   on: both sides speak with local stand-in voices');
      await hook.close();
    }
  }, 120_000);

  it('--no-audio: the banner and the call say audio is off, and how to turn it on', async () => {
    const proc = dev(['--speed', '1000', '--no-audio']);
    try {
      const url = await firstLine(proc);
      const call = (await (
        await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant: { name: 'Desk', firstMessage: 'Hi.' }, customer: { number: '+14155550100' } }) })
      ).json()) as {
        id: string;
      };
      const done = await ended(url, call.id);
      expect(String((done.analysis as { summary: string }).summary)).toContain('Audio: audio is off (--no-audio): calls run on the text timeline; start voice dev without --no-audio');
    } finally {
      proc.kill('SIGINT');
      const out = await proc;
      expect(String(out.stderr)).toContain('Audio:   off (--no-audio): calls run on the text timeline; start without --no-audio');
    }
  }, 60_000);
});
