// The developer's own voice on `voice dev`: each assistant line is asked of a fake voice server on
// loopback (`voice-request`, its headers, the chunk plan), the server's tone is what the
// recording's assistant channel holds and its length is the line's, `voiceLatency` is the server's
// own wait, and a refused, silent or garbled server falls back or ends the call as the reference
// says, with the cause in the call's log, while a healthy call beside it goes on untouched.
import { channel, decodeWav, goertzel } from 'voice-agent-audio';
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { validateServerMessage } from '../../../schemas/validate.js';
import { startEmulator } from '../../index.js';
import { STAND_IN_REPLY } from '../conversation.js';
import { chunkPlanOf, chunksOf } from '../stack/chunks.js';
import { secondsFor, startVoiceServer, TONE_HZ } from '../stack/voice-server.test-support.js';
import type { VoiceScript, VoiceServer } from '../stack/voice-server.test-support.js';
import { reportLatency, watchStalls } from '../stack/stalls.test-support.js';
import { startHook } from '../testing.js';
import { audioCall, HEARD_TYPES } from './calls.test-support.js';
import { VOICE_FAILED } from './custom-voice.js';

const FIRST = 'Thank you for calling the Blue Door, how can I help you today?';
const servers: VoiceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function voiceServer(script?: (text: string) => VoiceScript): Promise<VoiceServer> {
  const server = await startVoiceServer(script && ((h) => script(h.message.text)));
  servers.push(server);
  return server;
}

const customVoice = (url: string, extra: Json = {}): Json => ({ provider: 'custom-voice', server: { url, headers: { 'x-voice-key': 'k1' }, timeoutSeconds: 2 }, ...extra });
const logsOf = async (emuUrl: string, id: string): Promise<string> => (await fetch(`${emuUrl}/call/${id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();

describe('a custom voice', () => {
  it('is asked for each chunk with the contract; its tone is the assistant channel and its length the line', async () => {
    const server = await voiceServer();
    const c = await audioCall(
      { firstMessage: FIRST, voice: customVoice(server.url), serverMessages: [...HEARD_TYPES, 'voice-input'] },
      { turns: [{ say: 'I would like a table.' }, { say: 'Thank you, goodbye.' }] },
    );
    expect(c.call.endedReason).not.toBe(VOICE_FAILED);
    const pieces = [...chunksOf(FIRST, chunkPlanOf({})), ...chunksOf(STAND_IN_REPLY, chunkPlanOf({}))];
    expect(pieces.length).toBeGreaterThan(2);
    expect(server.heard.slice(0, pieces.length).map((h) => h.message.text)).toEqual(pieces);
    for (const h of server.heard) {
      expect(h.headers['x-voice-key']).toBe('k1');
      expect(h.message).toMatchObject({ type: 'voice-request', sampleRate: 24000, call: { id: c.call.id } });
      expect(await validateServerMessage(h.message)).toEqual([]);
    }
    // voice-input, where subscribed, names each piece asked for.
    const inputs = c.hook.received.filter((r) => r.message.type === 'voice-input');
    expect(inputs.map((r) => r.message.input)).toEqual(server.heard.map((h) => h.message.text));
    for (const r of inputs) expect(await validateServerMessage(r.message)).toEqual([]);
    // Each line lasts as long as the audio the server sent for it.
    const first = c.events('speech').find((e) => e.side === 'assistant')!;
    const firstPieces = chunksOf(FIRST, chunkPlanOf({}));
    expect(first.end - first.at).toBeCloseTo(
      firstPieces.reduce((n, p) => n + secondsFor(p), 0),
      2,
    );
    expect(c.events('voice')[0]).toMatchObject({ text: FIRST, chunks: firstPieces.length, url: server.url });
    // The recording's assistant channel holds the tone there: its power at the tone is far above a tone it does not hold.
    const res = await fetch(`${c.emu.url}/call/${String(c.call.id)}/stereo-recording`, { headers: { authorization: 'Bearer k' } });
    const assistant = channel(decodeWav(new Uint8Array(await res.arrayBuffer())), 1).samples;
    const span = assistant.slice(Math.round(first.at * 16000) + 800, Math.round(first.end * 16000) - 800);
    expect(goertzel(span, 16000, TONE_HZ)).toBeGreaterThan(100 * goertzel(span, 16000, 1000));
    const level = Math.sqrt(span.reduce((n, v) => n + v * v, 0) / span.length);
    expect(level).toBeGreaterThan(7000);
  });

  it('voiceLatency is the time to its first byte: the server waited 300 ms', async () => {
    const server = await voiceServer(() => ({ delayMs: 300 }));
    const stalls = watchStalls();
    const c = await audioCall({ voice: customVoice(server.url, { chunkPlan: { enabled: false } }) }, { turns: [{ say: 'I would like a table.' }, { say: 'Thank you, goodbye.' }] });
    const reply = server.heard.find((h) => h.message.text === STAND_IN_REPLY)!;
    const stalled = stalls.stop();
    const [latency] = c.events('latency');
    reportLatency('voiceLatency', latency!.voiceLatency, reply.waitedMs!, stalled);
    expect(reply.waitedMs).toBeGreaterThanOrEqual(299);
    // Measured against what the server did, not the scheduler: never less than its own wait, within
    // 30 ms of it (plus the longest stall of this process meanwhile, a few ms on a quiet machine).
    expect(latency!.voiceLatency).toBeGreaterThanOrEqual(Math.floor(reply.waitedMs!) - 1);
    expect(latency!.voiceLatency - reply.waitedMs!).toBeLessThanOrEqual(30 + stalled);
    expect((c.call.artifact as { performanceMetrics: { turnLatencies: Json[] } }).performanceMetrics.turnLatencies[0]).toMatchObject({ voiceLatency: latency!.voiceLatency });
  });

  it('starts a line at its first piece: a later piece is asked while it plays; one that fails stops the line there, logged', async () => {
    const LINE = 'Certainly, I have noted your table for four, and it is confirmed for you, thank you very much.';
    const [head, late] = chunksOf(LINE, chunkPlanOf({})) as [string, string];
    let started!: () => void;
    const saying = new Promise<void>((resolve) => (started = resolve));
    // The later piece is answered only once the assistant's server heard that the line started.
    const server = await voiceServer((text) => (text === late ? { after: saying } : {}));
    const hook = await startHook((r) => {
      if (r.message.type === 'speech-update' && r.message.role === 'assistant' && r.message.status === 'started') started();
      return undefined;
    });
    const emu = await startEmulator({ speed: 1000, audio: true, scenario: { turns: [{ say: 'Hi.' }] } });
    try {
      const a = (await emu.client.assistant.create({ firstMessage: LINE, server: { url: hook.url }, serverMessages: ['speech-update'], voice: customVoice(server.url) } as never)) as { id: string };
      const placed = (await emu.client.call.create({ assistantId: a.id, customer: { number: '+14155550100' } } as never)) as { id: string };
      await emu.calls.idle();
      const call = (await emu.client.call.get(placed.id)) as Json;
      expect(String((call.artifact as Json).transcript)).toContain(`AI: ${LINE}`);
      const first = emu.calls.timeline(placed.id)!.events.find((e) => e.type === 'speech' && e.side === 'assistant')!;
      expect((first as { end: number }).end - first.at).toBeCloseTo(secondsFor(head) + secondsFor(late), 2);
    } finally {
      await Promise.all([emu.close(), hook.close()]);
    }

    const failing = await voiceServer((text) => (text === late ? { status: 500 } : {}));
    const c = await audioCall({ firstMessage: LINE, voice: customVoice(failing.url) }, { turns: [{ say: 'Hi.' }] });
    expect(c.call.endedReason).not.toBe(VOICE_FAILED);
    expect(c.transcript()[0]).toBe(`AI: ${head}`);
    const line = c.events('speech').find((e) => e.side === 'assistant')!;
    expect(line.end - line.at).toBeCloseTo(secondsFor(head), 2);
    expect(await logsOf(c.emu.url, String(c.call.id))).toContain('the line stops after what it had said');
  });

  it('falls back along fallbackPlan: another voice server, then a built-in provider speaking with the stand-in', async () => {
    const good = await voiceServer();
    const broken = await voiceServer(() => ({ status: 500 }));
    const c = await audioCall({ firstMessage: 'Hello there.', voice: customVoice(broken.url, { fallbackPlan: { voices: [customVoice(good.url)] } }) }, { turns: [{ say: 'Hi.' }] });
    expect(c.call.endedReason).not.toBe(VOICE_FAILED);
    expect(good.heard.map((h) => h.message.text)).toContain('Hello there.');
    const logs = await logsOf(c.emu.url, String(c.call.id));
    expect(logs).toContain('HTTP 500');
    expect(logs).toContain('Fallback voice 1 (custom-voice) spoke the line');

    const local = await audioCall(
      { firstMessage: 'Hello there.', voice: customVoice(broken.url, { fallbackPlan: { voices: [{ provider: '11labs', voiceId: 'burt' }] } }) },
      { turns: [{ say: 'Hi.' }] },
    );
    expect(local.call.endedReason).not.toBe(VOICE_FAILED);
    expect(local.transcript()[0]).toBe('AI: Hello there.');
    expect(await logsOf(local.emu.url, String(local.call.id))).toContain('local stand-in voice');
  });

  it('is not called when the call has no audio (--no-audio), and the log says why', async () => {
    const server = await voiceServer();
    const emu = await startEmulator({ speed: 1000, audio: false, scenario: { turns: [{ say: 'Hi.' }] } });
    try {
      const a = (await emu.client.assistant.create({ firstMessage: 'Hello there.', voice: customVoice(server.url) } as never)) as { id: string };
      const placed = (await emu.client.call.create({ assistantId: a.id, customer: { number: '+14155550100' } } as never)) as { id: string };
      await emu.calls.idle();
      expect(server.heard).toHaveLength(0);
      expect(await logsOf(emu.url, placed.id)).toContain('Your custom voice is not called');
    } finally {
      await emu.close();
    }
  });

  const failures: [string, VoiceScript | 'refused', string][] = [
    ['refused', 'refused', 'connection refused'],
    ['timing out', { hang: true }, 'no audio within 1 s'],
    ['answering 500', { status: 500 }, 'HTTP 500'],
    ['answering nothing', { body: Buffer.alloc(0) }, 'the answer is empty'],
    ['answering an odd number of bytes', { body: Buffer.alloc(7, 1) }, 'odd number of bytes'],
    ['answering JSON', { body: Buffer.from('{"error":"no"}'), contentType: 'application/json' }, 'JSON, not 16-bit PCM'],
  ];
  it.each(failures)(
    '%s ends the call pipeline-error-custom-voice-failed with the cause logged; a healthy call beside it is untouched',
    async (_name, script, cause) => {
      const bad = await voiceServer(script === 'refused' ? undefined : () => script);
      const good = await voiceServer();
      const url = script === 'refused' ? `http://127.0.0.1:${new URL(bad.url).port}/voice` : bad.url;
      if (script === 'refused') await bad.close();
      const hook = await startHook();
      const emu = await startEmulator({ speed: 1000, audio: true, scenario: { turns: [{ say: 'Hi.' }] } });
      try {
        const place = async (voiceUrl: string): Promise<string> => {
          const a = (await emu.client.assistant.create({
            firstMessage: 'Hello there.',
            server: { url: hook.url },
            serverMessages: ['status-update', 'end-of-call-report'],
            voice: customVoice(voiceUrl, { server: { url: voiceUrl, timeoutSeconds: 1 } }),
          } as never)) as { id: string };
          return ((await emu.client.call.create({ assistantId: a.id, customer: { number: '+14155550100' } } as never)) as { id: string }).id;
        };
        const [failing, healthy] = await Promise.all([place(url), place(good.url)]);
        await emu.calls.idle();
        const ended = (await emu.client.call.get(failing)) as Json;
        expect(ended.endedReason).toBe(VOICE_FAILED);
        expect(await logsOf(emu.url, failing)).toContain(cause);
        const report = hook.received.find((r) => r.message.type === 'end-of-call-report' && (r.message.call as Json).id === failing)!;
        expect(report.message.endedReason).toBe(VOICE_FAILED);
        expect(await validateServerMessage(report.message)).toEqual([]);
        const fine = (await emu.client.call.get(healthy)) as Json;
        expect(fine.endedReason).not.toBe(VOICE_FAILED);
        expect(String((fine.artifact as Json).transcript)).toContain('AI: Hello there.');
      } finally {
        await Promise.all([emu.close(), hook.close()]);
      }
    },
    30_000,
  );
});
