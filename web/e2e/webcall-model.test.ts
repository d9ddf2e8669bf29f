// A local web call in real Chromium whose assistant runs on a (fake, loopback) model: the
// browser's speech recognition (here an injected SpeechRecognition the test drives) turns the
// customer's words into a turn, the model gets them, and its reply is the assistant's caption.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import type { LocalCallLog } from './webcall-fixture/entry.js';
import { launch } from './demo-harness.js';
import { serveFixture, type FixtureServer } from './webcall-harness.js';

let emulator: Emulator;
let model: FakeModel;
let fixture: FixtureServer;
let browser: Browser;

// Stands in for the browser's recognizer: start() registers it, and the test speaks through it.
const FAKE_RECOGNITION = `
  class FakeRecognition {
    constructor() { this.continuous = false; this.interimResults = false; this.lang = ''; this.onresult = null; this.onend = null; this.onerror = null; }
    start() { window.__recognizers = (window.__recognizers || []).concat(this); }
    stop() {}
    abort() {}
  }
  window.SpeechRecognition = FakeRecognition;
  window.webkitSpeechRecognition = FakeRecognition;
  window.__hear = (text) => {
    const r = (window.__recognizers || []).at(-1);
    if (!r || !r.onresult) return false;
    const alternative = { transcript: text, confidence: 0.9 };
    const result = Object.assign([alternative], { isFinal: true });
    r.onresult({ resultIndex: 0, results: [result] });
    return true;
  };`;

beforeAll(async () => {
  fixture = await serveFixture();
  model = await startFakeModel((req) => {
    const last = (req.body.messages as Array<{ role: string; content: string }>).at(-1);
    return { text: last?.role === 'user' ? `The model heard: ${last.content}` : 'Unexpected request.' };
  });
  emulator = await startEmulator({ port: 0, model: { url: model.url, model: 'fake' } });
  ({ browser } = await launch({ microphone: 'allowed' }));
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await emulator?.close();
  await model?.close();
});

describe("a local web call on the model, with the browser's speech recognition", () => {
  it("a recognised phrase becomes a customer turn and the model's reply is the assistant's caption", async () => {
    const context = await browser.newContext();
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
    await context.addInitScript(FAKE_RECOGNITION);
    const page = await context.newPage();
    await page.goto(`${fixture.origin}/`);
    await page.waitForFunction(() => typeof window.startLocal === 'function');
    await page.click('#ready');
    const callId = await page.evaluate((baseUrl) => window.startLocal({ baseUrl }), emulator.url);
    const log = () => page.evaluate(() => window.localLog) as Promise<LocalCallLog>;
    const caption = async (role: string, text: string) =>
      (await log()).events.some(
        (e) =>
          e.name === 'message' &&
          (e.payload as Record<string, unknown>).type === 'transcript' &&
          (e.payload as Record<string, unknown>).transcriptType === 'final' &&
          (e.payload as Record<string, unknown>).role === role &&
          (e.payload as Record<string, unknown>).transcript === text,
      );
    await expect.poll(() => caption('assistant', 'Hello from the test'), { timeout: 15_000 }).toBe(true);

    expect(await page.evaluate(() => (window as unknown as { __hear(text: string): boolean }).__hear('Do you open on Sundays?'))).toBe(true);
    await expect.poll(() => caption('user', 'Do you open on Sundays?'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => caption('assistant', 'The model heard: Do you open on Sundays?'), { timeout: 15_000 }).toBe(true);
    expect(model.requests.at(-1)?.body.messages).toContainEqual({ role: 'user', content: 'Do you open on Sundays?' });

    // Where the browser offers no recognition, the page sends typed text as the platform's add-message.
    await page.evaluate(() => window.localCall.send({ type: 'add-message', message: { role: 'user', content: 'Typed: can I park there?' } }));
    await expect.poll(() => caption('assistant', 'The model heard: Typed: can I park there?'), { timeout: 15_000 }).toBe(true);

    await page.evaluate(() => window.localCall.stop());
    await emulator.calls.idle();
    const record = (await (await fetch(`${emulator.url}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as { artifact: { transcript: string } };
    expect(record.artifact.transcript).toContain('AI: The model heard: Do you open on Sundays?');
    await context.close();
  }, 60_000);
});
