// The developer's endpointing and transcriber in a local web call with sound (a `ws` page streaming
// a microphone, fake servers on loopback), as on phone calls: each customer transcript is asked of
// the endpointing server, whose timeoutSeconds holds the turn on the call's clock while a new
// transcript within it joins the turn; a refused one leaves the transcription plan to decide. A
// transcriber that connects and never answers the customer's speech hands over to its fallback
// (which hears that speech again) or ends the call with the reference's reason, while a healthy
// call beside it goes on.
import { concat, synthesize } from 'voice-agent-audio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../messages/index.js';
import { validateServerMessage } from '../../schemas/validate.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { CUSTOM_RULE } from './audio/custom-endpointing.js';
import { TRANSCRIBER_FAILED_IN_CALL } from './audio/custom-transcriber.js';
import { level, startTranscriber } from './stack/transcriber-server.test-support.js';
import { startHook } from './testing.js';
import { RATE, soundBrowser, until } from './web-audio.test-support.js';

let emu: Emulator;
const auth = { authorization: 'Bearer k', 'content-type': 'application/json' };
let speech: Int16Array;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, audio: true });
  const said = await synthesize('A table for two, please.', { voice: 'customer' });
  speech = concat([0.3, said, 0.6], RATE).samples;
}, 60_000);
afterAll(() => emu.close());

type Event = Record<string, unknown> & { at: number };

/** A web call with sound for `assistant`, joined by a page that plays it, once its greeting was said. */
async function webCall(assistant: Json) {
  const body = { assistant: { name: 'Web', firstMessage: 'Hi.', clientMessages: ['transcript'], ...assistant } };
  const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string; webCallUrl: string };
  const b = await soundBrowser(created.webCallUrl);
  await until(() => b.frames.some((f) => f.type === 'audio'));
  b.send({ type: 'app-message', data: 'playable' });
  await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'assistant'));
  return {
    b,
    users: () => b.messages().flatMap((m) => (m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'user' ? [m.transcript] : [])),
    events: (type: string) => (emu.calls.timeline(created.id)?.events ?? []).filter((e) => e.type === type) as unknown as Event[],
    left: () => b.frames.find((f) => f.type === 'left'),
    /** Hangs up; once every call has ended, this one's log. */
    end: async () => {
      b.ws.close(1000);
      await emu.calls.idle();
      return (await fetch(`${emu.url}/call/${created.id}/call-logs`, { headers: auth })).text();
    },
  };
}

const transcriber = (url: string, more: Json = {}): Json => ({ provider: 'custom-transcriber', server: { url, ...more } });
const endpointing = (url: string): Json => ({ smartEndpointingPlan: { provider: 'custom-endpointing-model', server: { url } } });

describe('custom endpointing in a web call', () => {
  it("is asked about each transcript: 15 s holds the turn until the next transcript joins it, and that one's 2 s end it on the call's clock", async () => {
    const stt = await startTranscriber((burst) => ['I need to reschedule', 'for Tuesday'][burst], 500);
    const server = await startHook((r) => ({ json: { timeoutSeconds: (r.message.messages as { message: string }[]).at(-1)?.message === 'I need to reschedule' ? 15 : 2 } }));
    try {
      const c = await webCall({ transcriber: transcriber(stt.url), startSpeakingPlan: endpointing(server.url) });
      await c.b.talk(speech);
      await until(() => c.events('transcriber').length === 1);
      // Said within the first answer's 15 s: the same turn, asked about again.
      await c.b.talk(speech.subarray(0, RATE / 2));
      await until(() => c.users().length > 0);
      expect(c.users()).toEqual(['I need to reschedule for Tuesday']);
      const asked = server.received.filter((r) => r.message.type === 'call.endpointing.request');
      expect(asked.map((r) => (r.message.messages as Json[]).at(-1))).toMatchObject([
        { role: 'user', message: 'I need to reschedule' },
        { role: 'user', message: 'I need to reschedule for Tuesday' },
      ]);
      for (const r of asked) expect(await validateServerMessage(r.message)).toEqual([]);
      // Each answer is on the timeline, for the inspector; the turn ended 2 s after its last transcript.
      expect(c.events('endpointing').map((e) => [e.transcript, e.timeoutSeconds, e.url])).toEqual([
        ['I need to reschedule', 15, server.url],
        ['I need to reschedule for Tuesday', 2, server.url],
      ]);
      const turns = c.events('endpoint');
      expect(turns).toMatchObject([{ rule: CUSTOM_RULE, seconds: 2, transcript: 'I need to reschedule for Tuesday' }]);
      const held = turns[0]!.at - (turns[0]!.speechEnd as number);
      expect(held).toBeGreaterThanOrEqual(1.99);
      expect(held).toBeLessThan(2.5);
      await c.end();
    } finally {
      await Promise.all([stt.close(), server.close()]);
    }
  }, 60_000);

  it('holds the words the page recognised the same way', async () => {
    const server = await startHook(() => ({ json: { timeoutSeconds: 1 } }));
    try {
      const c = await webCall({ startSpeakingPlan: endpointing(server.url) });
      c.b.send({ type: 'recognition', working: true });
      c.b.send({ type: 'customer-text', text: 'I need to reschedule' });
      await until(() => c.users().length > 0);
      expect(c.users()).toEqual(['I need to reschedule']);
      expect(c.events('endpoint')).toMatchObject([{ rule: CUSTOM_RULE, seconds: 1, transcript: 'I need to reschedule' }]);
      expect(server.received.filter((r) => r.message.type === 'call.endpointing.request')).toHaveLength(1);
      await c.end();
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refused: the transcription endpointing plan decides, and the log says so', async () => {
    const stt = await startTranscriber((burst) => (burst === 0 ? 'I need to reschedule.' : undefined), 300);
    const gone = await startHook();
    await gone.close();
    try {
      const c = await webCall({ transcriber: transcriber(stt.url), startSpeakingPlan: endpointing(gone.url) });
      await c.b.talk(speech);
      await until(() => c.users().length > 0);
      expect(c.users()).toEqual(['I need to reschedule.']);
      expect(c.events('endpoint')).toMatchObject([{ rule: 'onPunctuationSeconds', transcript: 'I need to reschedule.' }]);
      expect(c.events('endpointing')).toMatchObject([{ url: gone.url, failed: expect.stringContaining('could not connect') }]);
      expect(await c.end()).toContain('Custom endpointing failed');
    } finally {
      await stt.close();
    }
  }, 60_000);
});

describe('a web call whose transcriber connects and never answers', () => {
  it('ends with the custom transcriber reason once its timeoutSeconds pass after the customer spoke; a healthy call beside it goes on', async () => {
    const silent = await startTranscriber(() => undefined);
    const healthy = await startTranscriber((burst) => (burst === 0 ? 'I need to reschedule' : undefined), 300);
    try {
      const [quiet, fine] = await Promise.all([webCall({ transcriber: transcriber(silent.url, { timeoutSeconds: 1 }) }), webCall({ transcriber: transcriber(healthy.url) })]);
      await Promise.all([quiet.b.talk(speech), fine.b.talk(speech)]);
      await until(() => quiet.left() !== undefined);
      expect(quiet.left()).toEqual({ type: 'left', endedReason: TRANSCRIBER_FAILED_IN_CALL });
      expect(level(silent.audio(), 0)).toBeGreaterThan(50);
      await until(() => fine.users().length > 0);
      expect(fine.users()).toEqual(['I need to reschedule']);
      expect(fine.left()).toBeUndefined();
      const [logs] = await Promise.all([quiet.end(), fine.end()]);
      expect(logs).toContain(`The transcriber failed: ${silent.url}: no transcription of the customer's speech within 1 s`);
    } finally {
      await Promise.all([silent.close(), healthy.close()]);
    }
  }, 60_000);

  it('hands over to the fallback transcriber, which hears the speech again from its start', async () => {
    const silent = await startTranscriber(() => undefined);
    const fallback = await startTranscriber((burst) => (burst === 0 ? 'I need to reschedule' : undefined), 300);
    try {
      const c = await webCall({ transcriber: { ...transcriber(silent.url, { timeoutSeconds: 1 }), fallbackPlan: { transcribers: [transcriber(fallback.url)] } } });
      await c.b.talk(speech);
      await until(() => c.users().length > 0);
      expect(c.users()).toEqual(['I need to reschedule']);
      expect(level(fallback.audio(), 0)).toBeGreaterThan(50);
      expect(c.left()).toBeUndefined();
      const logs = await c.end();
      expect(logs).toContain("no transcription of the customer's speech within 1 s");
      expect(logs).toContain('Fallback transcriber 1 (custom-transcriber) is connected');
    } finally {
      await Promise.all([silent.close(), fallback.close()]);
    }
  }, 60_000);
});
