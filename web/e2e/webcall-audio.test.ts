// A local web call with sound in real Chromium (one browser launch): `voice dev`'s emulator with
// audio streams the assistant's synthesized speech to the page, which plays it on the remote
// track (an analyser on that track reads level while the assistant speaks and none after), and
// the page's fake microphone (a WAV synthesized here, silence around a spoken line) is heard by
// the emulator's voice activity detector as the customer's speech. With the developer's own voice
// server and transcriber (fakes on loopback), the page plays the server's tone and the microphone
// reaches the transcriber. Nothing leaves loopback.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concat, decodeWav, detectSpeech, encodeWav, resample, synthesize } from 'voice-agent-audio';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { startTranscriber } from '#core/emulator/calls/stack/transcriber-server.test-support';
import { startVoiceServer } from '#core/emulator/calls/stack/voice-server.test-support';
import type { LocalCallLog } from './webcall-fixture/entry.js';
import { launch } from './demo-harness.js';
import { serveFixture, type FixtureServer } from './webcall-harness.js';

let emulator: Emulator;
let fixture: FixtureServer;
let origin = '';
let browser: Browser;
let dir = '';

beforeAll(async () => {
  // The microphone: 2.5 s of silence (the assistant greets meanwhile), a line, then silence.
  dir = await mkdtemp(join(tmpdir(), 'webcall-audio-'));
  const line = await synthesize('Hi, I would like to book a table for two.', { voice: 'customer' });
  const wav = join(dir, 'microphone.wav');
  await writeFile(wav, encodeWav(resample(concat([2.5, line, 8], line.sampleRate), 48000)));
  [fixture, emulator] = await Promise.all([serveFixture(), startEmulator({ port: 0, audio: true })]);
  origin = fixture.origin;
  ({ browser } = await launch({ microphone: { wav } }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a local web call with sound, in Chromium', () => {
  it("plays the assistant's streamed audio on the remote track, and the microphone is heard as the customer's speech", async () => {
    const context = await browser.newContext();
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
    const page = await context.newPage();
    // What crossed the call's socket: the assistant's audio (binary), never a line for the page to speak itself.
    const frames = { audio: 0, speak: 0, microphone: 0 };
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => (typeof f.payload === 'string' ? (frames.speak += Number(f.payload.includes('"type":"speak"'))) : frames.audio++));
      ws.on('framesent', (f) => (frames.microphone += Number(typeof f.payload !== 'string')));
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof window.startLocal === 'function');
    await page.click('#ready');
    const callId = await page.evaluate((baseUrl) => window.startLocal({ baseUrl, analyse: true }), emulator.url);
    expect(callId).toBeTruthy();
    const log = () => page.evaluate(() => window.localLog) as Promise<LocalCallLog>;

    // The emulator's detector hears the microphone's line: a span of customer speech on the call's timeline.
    const spans = () => (emulator.calls.timeline(String(callId))?.events ?? []).filter((e) => e.type === 'vad');
    await expect.poll(() => spans().length, { timeout: 30_000 }).toBeGreaterThan(0);
    // Until the page has read its track for a while after the assistant's first line (or the assistant spoke again).
    const settled = (l: LocalCallLog) => {
      const end = l.events.find((e) => e.name === 'speech-end')?.at;
      return end !== undefined && (l.track.some((t) => t.at > end + 1000) || l.events.some((e) => e.name === 'speech-start' && e.at > end));
    };
    await expect.poll(async () => settled(await log()), { timeout: 15_000 }).toBe(true);
    const l = await log();

    // Level on the remote track while the assistant speaks (its first speech-start to speech-end), none after.
    const at = (name: string) => l.events.find((e) => e.name === name)?.at ?? NaN;
    const [start, end] = [at('speech-start'), at('speech-end')];
    const next = l.events.find((e) => e.name === 'speech-start' && e.at > end)?.at ?? Infinity;
    const during = l.track.filter((t) => t.at > start && t.at < end).map((t) => t.level);
    const after = l.track.filter((t) => t.at > end + 300 && t.at < next).map((t) => t.level);
    expect(Math.max(...during)).toBeGreaterThan(0.02);
    expect(after.length).toBeGreaterThan(0);
    expect(Math.max(...after)).toBeLessThan(0.002);
    expect(Math.max(...l.events.filter((e) => e.name === 'volume-level').map((e) => e.payload as number))).toBeGreaterThan(0.05);

    expect(frames).toMatchObject({ speak: 0 });
    expect(frames.audio).toBeGreaterThan(5);
    expect(frames.microphone).toBeGreaterThan(20);

    await page.evaluate(() => window.localCall.stop());
    await emulator.calls.idle();
    const call = (await (await fetch(`${emulator.url}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as { artifact: { transcript: string } };
    expect(call.artifact.transcript).toContain('AI: Hello from the test');
    // The recording holds both sides: the microphone on the left, the assistant on the right.
    const stereo = decodeWav(new Uint8Array(await (await fetch(`${emulator.url}/__voice/recording/${callId}.stereo.wav`)).arrayBuffer()));
    const side = (k: number) => ({ samples: stereo.samples.filter((_, i) => i % 2 === k), sampleRate: stereo.sampleRate });
    expect((await detectSpeech(side(0))).length).toBeGreaterThan(0);
    expect((await detectSpeech(side(1))).length).toBeGreaterThan(0);
    await context.close();
  }, 90_000);

  it("plays the developer's voice server on the remote track, and the microphone reaches their transcriber", async () => {
    const voice = await startVoiceServer();
    const stt = await startTranscriber(() => undefined);
    const context = await browser.newContext();
    try {
      await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof window.startLocal === 'function');
      await page.click('#ready');
      const assistant = { voice: { provider: 'custom-voice', server: { url: voice.url } }, transcriber: { provider: 'custom-transcriber', server: { url: stt.url } } };
      const callId = await page.evaluate(({ baseUrl, assistant }) => window.startLocal({ baseUrl, analyse: true, assistant }), { baseUrl: emulator.url, assistant });
      expect(callId).toBeTruthy();

      // The microphone's line (after 2.5 s of silence) reaches the transcriber: binary frames with energy on channel 0.
      const loudest = (channel: 0 | 1) => {
        const bytes = stt.audio();
        let peak = 0;
        for (let i = channel * 2; i + 1 < bytes.length; i += 4) peak = Math.max(peak, Math.abs(bytes.readInt16LE(i)));
        return peak;
      };
      await expect.poll(() => loudest(0), { timeout: 30_000 }).toBeGreaterThan(3000);
      expect(stt.texts[0]).toMatchObject({ type: 'start', channels: 2 });
      // Channel 1 is the assistant's: the tone it said meanwhile.
      expect(loudest(1)).toBeGreaterThan(3000);

      // The greeting was the voice server's: asked for, and heard on the remote track while it played.
      expect(voice.heard.map((h) => h.message.text)).toEqual(['Hello from the test']);
      const log = () => page.evaluate(() => window.localLog) as Promise<LocalCallLog>;
      await expect.poll(async () => (await log()).events.some((e) => e.name === 'speech-end'), { timeout: 15_000 }).toBe(true);
      const l = await log();
      const at = (name: string) => l.events.find((e) => e.name === name)?.at ?? NaN;
      const during = l.track.filter((t) => t.at > at('speech-start') && t.at < at('speech-end')).map((t) => t.level);
      expect(Math.max(...during)).toBeGreaterThan(0.02);

      await page.evaluate(() => window.localCall.stop());
      await emulator.calls.idle();
    } finally {
      await context.close();
      await Promise.all([voice.close(), stt.close()]);
    }
  }, 90_000);
});
