// `voice trigger` against a developer's own voice stack, as a real process: a custom voice server's
// answer is judged as audio (16-bit PCM at the asked rate, a sensible length for the text), and the
// endpointing and knowledge-base answers against their published shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneBytes } from '#core/emulator/calls/stack/voice-server.test-support';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer } from './dev-server.js';
import { fileHarness, json } from './harness.js';

const h = fileHarness();
let server: DevServer;

beforeAll(async () => {
  server = await devServer((g) => {
    const m = messageOf(g);
    const text = String(m.text ?? '');
    const rate = Number(m.sampleRate);
    switch (g.path.slice(1)) {
      case 'voice':
        return { body: toneBytes(text.length * 0.06, rate) };
      case 'voice-json':
        return { body: { data: '' } };
      case 'voice-odd':
        return { body: Buffer.alloc(101, 1) };
      case 'voice-slow-rate':
        // Audio at a third of the asked rate is said as three times too long.
        return { body: toneBytes(text.length * 0.06 * 3 * 3, rate) };
      case 'endpointing-bad':
        return { body: { timeoutSeconds: 'soon' } };
      default:
        return { body: { documents: [{ content: 'Opening hours: nine to five.', similarity: 1 }] } };
    }
  });
});
afterAll(() => server.close());

describe('voice trigger against your voice stack', () => {
  it('voice-request: PCM of the asked rate and a sensible length passes, with what it heard', async () => {
    const r = await h.current.voice(['trigger', 'voice-request', '--forward-to', `${server.url}/voice`, '--set', 'text=Your table is booked for seven.', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = json<{ ok: boolean; valid: boolean; notes: string[] }>(r);
    expect(out).toMatchObject({ ok: true, valid: true });
    expect(out.notes[0]).toMatch(/^audio: 1\.86 s at 24000 Hz/);
    const plain = await h.current.voice(['trigger', 'voice-request', '--forward-to', `${server.url}/voice`]);
    expect(plain.stdout).toContain('Valid voice-request answer.');
  });

  it.each([
    ['voice-json', 'the answer is JSON'],
    ['voice-odd', 'odd number of bytes'],
    ['voice-slow-rate', 'is too long for'],
  ])('voice-request answered by /%s fails with a clear reason and exit 1', async (path, reason) => {
    const r = await h.current.voice(['trigger', 'voice-request', '--forward-to', `${server.url}/${path}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('Invalid voice-request answer');
    expect(r.stdout).toContain(reason);
    // What is not audio is shown as the server wrote it, not counted as bytes of audio.
    expect(r.stdout.includes('bytes of audio')).toBe(path !== 'voice-json');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('call.endpointing.request and knowledge-base-request answers are judged against their published shapes', async () => {
    const bad = await h.current.voice(['trigger', 'call.endpointing.request', '--forward-to', `${server.url}/endpointing-bad`]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toContain('timeoutSeconds');
    const kb = await h.current.voice(['trigger', 'knowledge-base-request', '--forward-to', `${server.url}/kb`, '--json']);
    expect(kb.exitCode, kb.stderr).toBe(0);
    expect(json<{ valid: boolean }>(kb).valid).toBe(true);
  });
});
