// A web call with sound, its browser a `ws` client speaking the local protocol's audio: the
// assistant's lines arrive as 16-bit audio (not text for the page to speak), the microphone's
// audio goes to the voice activity detector, which makes the customer's turn and cuts the
// assistant off when they talk over it, and the call's recording holds both sides. With the
// developer's voice server and transcriber (fakes on loopback), the page hears the server's tone
// and the transcriber hears the microphone; its words are the customer's turn, and its failure ends
// the call with the reference's reason.
import { concat, decodeWav, detectSpeech, synthesize } from 'voice-agent-audio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { level, startTranscriber } from './stack/transcriber-server.test-support.js';
import { startVoiceServer, TONE_HZ } from './stack/voice-server.test-support.js';
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

/** The frequency of a tone, from its zero crossings. */
function pitch(samples: Int16Array): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / 2 / (samples.length / RATE);
}

describe('a local web call with sound', () => {
  it('streams the assistant, hears the microphone, is cut off by it, and records both sides', async () => {
    const body = { assistant: { name: 'Web', firstMessage: 'Hello there.', clientMessages: ['transcript', 'user-interrupted', 'speech-update'] } };
    const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string; webCallUrl: string };
    const b = await soundBrowser(created.webCallUrl);
    await until(() => b.frames.some((f) => f.type === 'audio'));
    expect(b.frames.find((f) => f.type === 'audio')).toEqual({ type: 'audio', sampleRate: RATE });
    b.send({ type: 'recognition', working: false });
    b.send({ type: 'app-message', data: 'playable' });

    // The greeting is audio: as many samples as its synthesized speech, and no line for the page to speak.
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'assistant'));
    const greeting = await synthesize('Hello there.', { voice: 'assistant' });
    await until(() => b.heard.reduce((n, h) => n + h.length, 0) === greeting.samples.length);
    expect(b.frames.some((f) => f.type === 'speak')).toBe(false);

    // The microphone says a line: the detector marks it and, with no recognition in the page, it is a (wordless) turn.
    await b.talk(speech);
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'user'));
    const vad = () => (emu.calls.timeline(created.id)?.events ?? []).filter((e) => e.type === 'vad');
    expect(vad()).toHaveLength(1);
    const [span] = vad() as Array<{ at: number; end: number }>;
    expect((span?.end ?? 0) - (span?.at ?? 0)).toBeGreaterThan(0.8);

    // A long line, talked over: the stream stops (`silence`), and the transcript keeps the words said by then.
    const long = 'Let me read you every opening hour we have this week, starting with Monday morning and going all the way to Sunday night.';
    b.send({ type: 'app-message', data: JSON.stringify({ type: 'say', message: long }) });
    await until(() => b.messages().some((m) => m.type === 'transcript' && m.role === 'assistant' && String(m.transcript).startsWith('Let me read')));
    const before = b.frames.filter((f) => f.type === 'silence').length;
    await b.talk(speech);
    await until(() => b.messages().some((m) => m.type === 'user-interrupted'));
    expect(b.frames.filter((f) => f.type === 'silence').length).toBeGreaterThan(before);
    const cut = (emu.calls.timeline(created.id)?.events ?? []).find((e) => e.type === 'interruption');
    expect(cut).toMatchObject({ by: 'customer', rule: 'voiceSeconds' });

    b.ws.close(1000);
    await emu.calls.idle();
    const call = (await (await fetch(`${emu.url}/call/${created.id}`, { headers: auth })).json()) as { artifact: { transcript: string }; startedAt: string; endedAt: string };
    const transcript = call.artifact.transcript;
    expect(transcript).toContain('AI: Hello there.');
    expect(transcript).not.toContain(long);

    // The recording: the microphone on the left, the assistant on the right.
    const wav = Buffer.from(await (await fetch(`${emu.url}/__voice/recording/${created.id}.stereo.wav`)).arrayBuffer());
    const stereo = decodeWav(new Uint8Array(wav));
    expect(stereo.channels).toBe(2);
    const side = (k: 0 | 1) => ({ samples: stereo.samples.filter((_, i) => i % 2 === k), sampleRate: stereo.sampleRate });
    expect((await detectSpeech(side(0))).length).toBeGreaterThanOrEqual(2);
    expect((await detectSpeech(side(1))).length).toBeGreaterThanOrEqual(2);
    expect(stereo.samples.length / 2 / stereo.sampleRate).toBeCloseTo((Date.parse(call.endedAt) - Date.parse(call.startedAt)) / 1000, 0);
  }, 60_000);

  it("says the assistant's idle message when the microphone stays quiet (a customer.speech.timeout hook)", async () => {
    const hooks = [{ on: 'customer.speech.timeout', options: { timeoutSeconds: 1, triggerMaxCount: 1 }, do: [{ type: 'say', exact: 'Are you still there?' }] }];
    const body = { assistant: { name: 'Web', firstMessage: 'Hi.', hooks, clientMessages: ['transcript'] } };
    const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string; webCallUrl: string };
    const b = await soundBrowser(created.webCallUrl);
    await until(() => b.frames.some((f) => f.type === 'audio'));
    b.send({ type: 'app-message', data: 'playable' });
    const quiet = setInterval(() => b.ws.send(new Int16Array(RATE / 10)), 100);
    try {
      await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.transcript === 'Are you still there?'));
    } finally {
      clearInterval(quiet);
    }
    const said = (emu.calls.timeline(created.id)?.events ?? []).filter((e) => e.type === 'speech');
    expect(said.map((e) => [e.text, e.source])).toEqual([
      ['Hi.', 'first-message'],
      ['Are you still there?', 'hook'],
    ]);
    // Said once the customer had been quiet for timeoutSeconds after the greeting.
    expect((said[1]?.at ?? 0) - (said[0]?.end ?? 0)).toBeGreaterThanOrEqual(1);
    b.ws.close(1000);
    await emu.calls.idle();
  }, 30_000);

  it("plays the developer's voice server to the page, and their transcriber hears the microphone and makes the customer's turn", async () => {
    const voice = await startVoiceServer();
    // It answers once, after the microphone's line (its frames stopped for 400 ms).
    const stt = await startTranscriber((burst) => (burst === 0 ? 'I need to reschedule' : undefined), 400);
    try {
      const assistant = {
        name: 'Web',
        firstMessage: 'Hello there.',
        voice: { provider: 'custom-voice', server: { url: voice.url } },
        transcriber: { provider: 'custom-transcriber', server: { url: stt.url } },
        clientMessages: ['transcript'],
      };
      const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant }) })).json()) as { id: string; webCallUrl: string };
      const b = await soundBrowser(created.webCallUrl);
      await until(() => b.frames.some((f) => f.type === 'audio'));
      b.send({ type: 'recognition', working: true });
      b.send({ type: 'app-message', data: 'playable' });

      // The greeting the page hears is the voice server's tone, all of it.
      await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'assistant'));
      expect(voice.heard.map((h) => h.message.text)).toEqual(['Hello there.']);
      const heard = () => {
        const all = new Int16Array(b.heard.reduce((n, h) => n + h.length, 0));
        b.heard.reduce((at, h) => (all.set(h, at), at + h.length), 0);
        return all;
      };
      await until(() => heard().length >= Math.round('Hello there.'.length * 0.06 * RATE) - 2);
      expect(pitch(heard())).toBeGreaterThan(TONE_HZ - 15);
      expect(pitch(heard())).toBeLessThan(TONE_HZ + 15);

      // The microphone's line goes to the transcriber (start frame, then its audio on channel 0); its words are the turn.
      await b.talk(speech);
      await until(() => b.messages().some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'user'));
      expect(stt.texts[0]).toEqual({ type: 'start', encoding: 'linear16', container: 'raw', sampleRate: RATE, channels: 2 });
      expect(stt.audio().length).toBeGreaterThanOrEqual(speech.length * 4 * 0.9);
      expect(level(stt.audio(), 0)).toBeGreaterThan(50);
      // The browser's recognition is not used while the transcriber listens.
      b.send({ type: 'customer-text', text: 'words from the browser' });
      const users = () => b.messages().filter((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.role === 'user');
      expect(users().map((m) => m.transcript)).toEqual(['I need to reschedule']);

      b.ws.close(1000);
      await emu.calls.idle();
      const call = (await (await fetch(`${emu.url}/call/${created.id}`, { headers: auth })).json()) as { artifact: { transcript: string } };
      expect(call.artifact.transcript).toContain('User: I need to reschedule');
      expect(call.artifact.transcript).not.toContain('words from the browser');
      expect((emu.calls.timeline(created.id)?.events ?? []).filter((e) => e.type === 'transcriber')).toMatchObject([{ text: 'I need to reschedule', url: stt.url }]);
    } finally {
      await Promise.all([voice.close(), stt.close()]);
    }
  }, 60_000);

  it('ends the web call with the custom transcriber reason when the transcriber closes mid-call and no fallback is left', async () => {
    const stt = await startTranscriber(() => ({ close: true }), 300);
    try {
      const assistant = { name: 'Web', firstMessage: 'Hi.', transcriber: { provider: 'custom-transcriber', server: { url: stt.url } } };
      const created = (await (await fetch(`${emu.url}/call/web`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant }) })).json()) as { id: string; webCallUrl: string };
      const b = await soundBrowser(created.webCallUrl);
      await until(() => b.frames.some((f) => f.type === 'audio'));
      b.send({ type: 'app-message', data: 'playable' });
      await b.talk(speech);
      await until(() => b.frames.some((f) => f.type === 'left'));
      expect(b.frames.find((f) => f.type === 'left')).toEqual({ type: 'left', endedReason: 'call.in-progress.error-vapifault-custom-transcriber-failed' });
      await emu.calls.idle();
      const logs = await (await fetch(`${emu.url}/call/${created.id}/call-logs`, { headers: auth })).text();
      expect(logs).toContain('The transcriber failed');
    } finally {
      await stt.close();
    }
  }, 60_000);
});
