// voice/webcall in real Chromium against the emulator's own web calls: the local transport joins
// over a WebSocket, the assistant is heard (synthesised audio through the session's audio element
// and level observer), and the emulator's call record agrees with what the page saw. Nothing leaves
// loopback and daily-js is never fetched.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import type { LocalCallLog } from './webcall-fixture/entry.js';
import { launch } from './demo-harness.js';
import { serveFixture, type FixtureServer } from './webcall-harness.js';

let emulator: Emulator;
let fixture: FixtureServer;
let origin = '';
let served: string[] = [];
let browser: Browser;
const requests: string[] = [];
const REACT_PAGE = '<!doctype html><html><head><meta charset="utf-8"></head><body><button id="go">go</button><script type="module" src="/react-entry.js"></script></body></html>';

beforeAll(async () => {
  fixture = await serveFixture({
    entries: { 'react-entry': 'react-entry.tsx' },
    // React's development build: StrictMode mounts, unmounts and mounts again, as in an app under development.
    build: { jsx: 'automatic', define: { 'process.env.NODE_ENV': '"development"' } },
    pages: { '/react': REACT_PAGE },
  });
  ({ origin, served } = fixture);
  emulator = await startEmulator({ port: 0 });
  ({ browser } = await launch({ microphone: 'allowed' }));
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await emulator?.close();
});

const log = (page: Page) => page.evaluate(() => window.localLog) as Promise<LocalCallLog>;
const names = (l: LocalCallLog) => l.events.map((e) => e.name);
const messages = (l: LocalCallLog) => l.events.filter((e) => e.name === 'message').map((e) => e.payload as Record<string, unknown>);
const finalLine = (l: LocalCallLog, text: string) => messages(l).some((m) => m.type === 'transcript' && m.transcriptType === 'final' && m.transcript === text);

/** A local call whose microphone plays a test tone (the customer can talk), once its first message has been heard. */
async function talkingCall() {
  const context = await browser.newContext();
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => typeof window.startLocal === 'function');
  await page.click('#ready');
  const callId = await page.evaluate((baseUrl) => window.startLocal({ baseUrl, testTone: true }), emulator.url);
  await expect.poll(async () => finalLine(await log(page), 'Hello from the test'), { timeout: 15_000 }).toBe(true);
  return { context, page, callId };
}

describe('voice/webcall joins the emulator (no daily-js, no internet)', () => {
  it('hears the first message, says a line, stops, and the call record agrees', async () => {
    const context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      requests.push(url.href);
      return url.hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('websocket', (ws) => requests.push(ws.url()));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => typeof window.startLocal === 'function');
    // A click gives the page the user activation that lets it play audio, as a real visitor's would.
    await page.click('#ready');
    const callId = await page.evaluate((baseUrl) => window.startLocal({ baseUrl }), emulator.url);
    expect(callId).toBeTruthy();

    await expect.poll(async () => finalLine(await log(page), 'Hello from the test'), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => names(await log(page)).includes('speech-end'), { timeout: 10_000 }).toBe(true);
    let l = await log(page);
    const order = names(l);
    expect(order.indexOf('call-start-success')).toBeGreaterThan(order.lastIndexOf('call-start-progress'));
    expect(order.indexOf('call-start')).toBeGreaterThan(order.indexOf('call-start-success'));
    expect(order).toContain('audio');
    expect(order.indexOf('speech-start')).toBeGreaterThan(order.indexOf('call-start'));
    expect(order.indexOf('speech-end')).toBeGreaterThan(order.indexOf('speech-start'));
    const loudest = Math.max(...l.events.filter((e) => e.name === 'volume-level').map((e) => e.payload as number));
    expect(loudest).toBeGreaterThan(0.1);
    const progress = l.events.filter((e) => e.name === 'call-start-progress').map((e) => e.payload as { stage: string; status: string });
    expect(progress.filter((p) => p.status === 'failed')).toEqual([]);
    expect(progress.at(-1)).toMatchObject({ stage: 'audio-processing-setup', status: 'completed' });
    for (const type of ['status-update', 'speech-update', 'conversation-update', 'model-output']) expect(messages(l).some((m) => m.type === type)).toBe(true);
    expect(messages(l).some((m) => m.type === 'transcript' && m.transcriptType === 'partial')).toBe(true);

    // Mute, a system note without a reply, then a line the assistant says on request.
    await page.evaluate(() => window.localCall.setMuted(true));
    expect(await page.evaluate(() => window.localCall.isMuted())).toBe(true);
    await page.evaluate(() => window.localCall.send({ type: 'add-message', message: { role: 'system', content: 'A note from the test.' }, triggerResponseEnabled: false }));
    await page.evaluate(() => window.localCall.say('Said on request.', false));
    await expect.poll(async () => finalLine(await log(page), 'Said on request.'), { timeout: 15_000 }).toBe(true);

    await page.evaluate(() => window.localCall.stop());
    l = await log(page);
    const afterEnd = l.events.slice(names(l).indexOf('call-end'));
    expect(afterEnd[0]?.name).toBe('call-end');
    expect(l.states.at(-1)).toBe('idle');
    expect(await page.evaluate(() => document.querySelectorAll('audio').length)).toBe(0);

    await emulator.calls.idle();
    const record = (await (await fetch(`${emulator.url}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ type: 'webCall', status: 'ended', endedReason: 'customer-ended-call' });
    const transcript = (record.artifact as { transcript: string }).transcript;
    expect(transcript).toContain('AI: Hello from the test');
    expect(transcript).toContain('AI: Said on request.');
    expect((record.messages as Array<{ role: string; message: string }>).some((m) => m.role === 'system' && m.message === 'A note from the test.')).toBe(true);

    // Offline by construction, and the local transport never needed Daily.
    expect(requests.filter((url) => !/^(http|ws):\/\/127\.0\.0\.1[:/]/.test(url))).toEqual([]);
    expect(requests.some((url) => url.startsWith(`ws://127.0.0.1:${emulator.port}/__voice/webcall/`))).toBe(true);
    expect(served.filter((path) => /daily/i.test(path))).toEqual([]);
    await context.close();
  }, 60_000);

  it('the emulator ending the call ends the browser side; end() ends it from the assistant side', async () => {
    const context = await browser.newContext();
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
    const page = await context.newPage();
    const begin = async () => {
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof window.startLocal === 'function');
      await page.click('#ready');
      const id = await page.evaluate((baseUrl) => window.startLocal({ baseUrl }), emulator.url);
      await expect.poll(async () => names(await log(page)).includes('call-start'), { timeout: 15_000 }).toBe(true);
      return id;
    };
    const record = async (id: string | null) => {
      await emulator.calls.idle();
      return (await (await fetch(`${emulator.url}/call/${id}`, { headers: { authorization: 'Bearer k' } })).json()) as Record<string, unknown>;
    };

    // The assistant says a last line and hangs up: the emulator ends the call and the page follows.
    const first = await begin();
    await page.evaluate(() => window.localCall.say('Goodbye now.', true));
    await expect.poll(async () => (await log(page)).states.at(-1), { timeout: 20_000 }).toBe('idle');
    let l = await log(page);
    expect(names(l)).toContain('call-end');
    expect(finalLine(l, 'Goodbye now.')).toBe(true);
    const ended = messages(l).filter((m) => m.type === 'status-update' && m.status === 'ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ endedReason: 'assistant-ended-call-after-message-spoken' });
    expect(await record(first)).toMatchObject({ status: 'ended', endedReason: 'assistant-ended-call-after-message-spoken' });

    // end() sends end-call, then leaves at once (as with Daily, the page's own ended status says
    // customer-ended-call); the emulator records that the assistant ended it.
    const second = await begin();
    await page.evaluate(() => window.localCall.end());
    l = await log(page);
    expect(l.states.at(-1)).toBe('idle');
    expect(names(l)).toContain('call-end');
    expect(await record(second)).toMatchObject({ status: 'ended', endedReason: 'assistant-ended-call' });
    await context.close();
  }, 60_000);

  it('voice/react: a StrictMode component that calls on mount makes exactly one call, and unmounting ends it', async () => {
    const context = await browser.newContext();
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected')));
    const page = await context.newPage();
    await page.goto(`${origin}/react`);
    await page.waitForFunction(() => typeof window.mountCall === 'function');
    await page.click('#go');
    const before = new Set(((await (await fetch(`${emulator.url}/call?limit=1000`, { headers: { authorization: 'Bearer k' } })).json()) as Array<{ id: string }>).map((c) => c.id));
    await page.evaluate((baseUrl) => window.mountCall(baseUrl), emulator.url);
    await expect.poll(() => page.evaluate(() => window.hookState.transcript), { timeout: 15_000 }).toBe('Hello from StrictMode');
    const hook = await page.evaluate(() => window.hookState);
    // StrictMode ran the effect twice; the first start gave way to the second.
    expect(hook.effects).toBe(2);
    expect(hook).toMatchObject({ state: 'active', listening: true });
    expect(hook.volume).toBeGreaterThan(0);
    const made = ((await (await fetch(`${emulator.url}/call?limit=1000`, { headers: { authorization: 'Bearer k' } })).json()) as Array<{ id: string; status: string }>).filter(
      (c) => !before.has(c.id),
    );
    expect(made).toHaveLength(1);
    expect(made[0]?.status).toBe('in-progress');
    await page.evaluate(() => window.unmountCall());
    await emulator.calls.idle();
    const record = (await (await fetch(`${emulator.url}/call/${made[0]?.id}`, { headers: { authorization: 'Bearer k' } })).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    await context.close();
  }, 60_000);

  it('the microphone is the customer: talking moves the conversation on, and muted talk is not heard', async () => {
    const { context, page, callId } = await talkingCall();
    const userLines = async () => messages(await log(page)).filter((m) => m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final');

    // Muted: the customer talks, nobody hears it.
    await page.evaluate(() => window.localCall.setMuted(true));
    await page.evaluate(() => window.customerTalk(1200));
    await page.waitForTimeout(3000);
    expect(await userLines()).toEqual([]);

    // Unmuted: a second and a bit of sound, then quiet, is the customer's turn; the assistant answers.
    await page.evaluate(() => window.localCall.setMuted(false));
    await page.evaluate(() => window.customerTalk(1200));
    await expect.poll(async () => (await userLines()).length, { timeout: 15_000 }).toBe(1);
    expect((await userLines())[0]?.transcript).toBe("Hi, I'm calling to check on my appointment.");
    await expect.poll(async () => finalLine(await log(page), 'Sure, I can help with that.'), { timeout: 15_000 }).toBe(true);

    await page.evaluate(() => window.localCall.stop());
    await emulator.calls.idle();
    const record = (await (await fetch(`${emulator.url}/call/${callId}`, { headers: { authorization: 'Bearer k' } })).json()) as { artifact: { transcript: string } };
    expect(record.artifact.transcript).toContain("User: Hi, I'm calling to check on my appointment.");
    expect(record.artifact.transcript).toContain('AI: Sure, I can help with that.');
    await context.close();
  }, 60_000);

  it("words said in the call make it the developer's: a later wordless turn borrows no line from the script", async () => {
    const { context, page } = await talkingCall();
    const userLines = async () =>
      messages(await log(page))
        .filter((m) => m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final')
        .map((m) => String(m.transcript));
    // The developer types a line (the platform's add-message), then talks without words.
    await page.evaluate(() => window.localCall.send({ type: 'add-message', message: { role: 'user', content: 'Hi, where is my parcel?' } }));
    await page.evaluate(() => window.customerTalk(1200));
    await expect.poll(async () => (await userLines()).length, { timeout: 15_000 }).toBe(1);
    expect((await userLines())[0]).toMatch(/^\(the customer spoke for \d+\.\d seconds\)$/);
    await page.evaluate(() => window.localCall.stop());
    await context.close();
  }, 60_000);
});
