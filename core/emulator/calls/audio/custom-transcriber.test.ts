// The developer's own transcriber on `voice dev`: a fake WebSocket transcriber on loopback gets the
// documented start frame and the call's audio (customer channel 0, assistant channel 1); its
// transcription is the customer's turn and the model's input; `transcriberLatency` is its own wait;
// refused, silent and garbled transcribers fall back or end the call with the reference's reasons.
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { startFakeModel } from '../../../model/testing.js';
import { validateServerMessage } from '../../../schemas/validate.js';
import { startEmulator } from '../../index.js';
import { level, startTranscriber } from '../stack/transcriber-server.test-support.js';
import type { TranscriberAnswer, TranscriberServer } from '../stack/transcriber-server.test-support.js';
import { reportLatency, watchStalls } from '../stack/stalls.test-support.js';
import { audioCall } from './calls.test-support.js';
import { TRANSCRIBER_FAILED, TRANSCRIBER_FAILED_IN_CALL } from './custom-transcriber.js';

const servers: TranscriberServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function transcriber(script: (burst: number) => TranscriberAnswer, afterMs?: number): Promise<TranscriberServer> {
  const t = await startTranscriber(script, afterMs);
  servers.push(t);
  return t;
}

const custom = (url: string, extra: Json = {}): Json => ({ provider: 'custom-transcriber', server: { url, headers: { 'x-stt-key': 's1' }, timeoutSeconds: 1 }, ...extra });
const SCENARIO = { turns: [{ say: 'Hello, I wanted to change my booking.' }, { say: 'Thank you, goodbye.' }] };
const logsOf = async (emuUrl: string, id: string): Promise<string> => (await fetch(`${emuUrl}/call/${id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();

describe('a custom transcriber', () => {
  it("gets the start frame and the call's audio; its 'I need to reschedule' is the customer's turn and the model's input", async () => {
    const t = await transcriber((i) => (i === 0 ? 'I need to reschedule' : 'Thanks, bye'));
    const model = await startFakeModel([{ text: 'Of course, which day suits you?' }, { text: 'Goodbye!' }]);
    const c = await audioCall({ firstMessage: 'Blue Door, how can I help?', transcriber: custom(t.url, { server: { url: t.url, headers: { 'x-stt-key': 's1' }, timeoutSeconds: 10 } }) }, SCENARIO, {
      model,
    });
    await model.close();
    expect(t.texts[0]).toEqual({ type: 'start', encoding: 'linear16', container: 'raw', sampleRate: 16000, channels: 2 });
    expect(t.headers[0]!['x-stt-key']).toBe('s1');
    // Interleaved 16-bit stereo: whole frames, the customer's speech on channel 0, the assistant's greeting on channel 1.
    const audio = t.audio();
    expect(audio.length % 4).toBe(0);
    expect(level(audio, 0)).toBeGreaterThan(50);
    expect(level(audio, 1)).toBeGreaterThan(50);
    const lines = c.transcript();
    expect(lines).toContain('User: I need to reschedule');
    expect(lines.join('\n')).not.toContain('change my booking');
    const userMessages = (model.requests[0]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user');
    expect(userMessages.at(-1)!.content).toBe('I need to reschedule');
    const finals = c.hook.received.filter((r) => r.message.type === 'transcript' && r.message.role === 'user' && r.message.transcriptType === 'final');
    expect(finals[0]!.message.transcript).toBe('I need to reschedule');
    for (const r of finals) expect(await validateServerMessage(r.message)).toEqual([]);
    const heard = c.events('transcriber');
    expect(heard[0]).toMatchObject({ text: 'I need to reschedule', written: 'Hello, I wanted to change my booking.', messages: [{ channel: 'customer', text: 'I need to reschedule' }] });
    // The frames the timeline counts are the frames the server got (100 ms each, a turn's last one shorter).
    const frames = heard.reduce((n, e) => n + (e.frames ?? 0), 0);
    expect(frames).toBeGreaterThanOrEqual(Math.ceil(audio.length / 6400));
    expect(frames).toBeLessThanOrEqual(Math.ceil(audio.length / 6400) + heard.length);
    expect((c.call.artifact as { performanceMetrics: { simulated: string[] } }).performanceMetrics.simulated).not.toContain('transcriberLatency');
  });

  it('transcriberLatency is the time from the end of the audio to the transcription: the server waited 200 ms', async () => {
    const t = await transcriber((i) => (i === 0 ? 'I need to reschedule' : 'Bye'), 200);
    const stalls = watchStalls();
    const c = await audioCall({ transcriber: custom(t.url, { server: { url: t.url, timeoutSeconds: 10 } }) }, SCENARIO);
    const stalled = stalls.stop();
    const [latency] = c.events('latency');
    reportLatency('transcriberLatency', latency!.transcriberLatency, t.waits[0]!, stalled);
    expect(t.waits[0]).toBeGreaterThanOrEqual(199);
    // Against what the server did, not the scheduler: never less than its own wait, within 30 ms of
    // it (plus the longest stall of this process meanwhile, a few ms on a quiet machine).
    expect(latency!.transcriberLatency).toBeGreaterThanOrEqual(Math.floor(t.waits[0]!) - 1);
    expect(latency!.transcriberLatency - t.waits[0]!).toBeLessThanOrEqual(30 + stalled);
  });

  it('falls back to a built-in transcriber (the line as written stands in) when the custom one sends garbage', async () => {
    const t = await transcriber(() => ({ garbage: 'not json' }));
    const c = await audioCall({ transcriber: custom(t.url, { fallbackPlan: { transcribers: [{ provider: 'deepgram' }] } }) }, SCENARIO);
    expect(c.transcript()).toContain('User: Hello, I wanted to change my booking.');
    const logs = await logsOf(c.emu.url, String(c.call.id));
    expect(logs).toContain('not JSON');
    expect(logs).toContain('Fallback transcriber 1 (deepgram) takes over');
  });

  it.each(
    (
      [
        ['refused at the start', 'refused', TRANSCRIBER_FAILED, 'connection refused'],
        ['garbage mid-call', { garbage: '{"type":"oops"}' }, TRANSCRIBER_FAILED_IN_CALL, 'not a transcriber-response'],
        ['silent mid-call', undefined, TRANSCRIBER_FAILED_IN_CALL, 'no transcription'],
        ['closing mid-call', { close: true }, TRANSCRIBER_FAILED_IN_CALL, 'connection closed'],
      ] as const
    ).map(([name, answer, reason, cause]) => ({ name, answer, reason, cause })),
  )(
    '$name ends the call $reason with the cause logged; a healthy call beside it is untouched',
    async ({ answer, reason, cause }) => {
      const bad = await transcriber(() => (answer === 'refused' ? undefined : answer));
      const good = await transcriber(() => 'I need to reschedule');
      const url = bad.url;
      if (answer === 'refused') await bad.close();
      const emu = await startEmulator({ speed: 1000, audio: true, scenario: SCENARIO });
      try {
        const place = async (u: string, timeoutSeconds: number): Promise<string> => {
          const a = (await emu.client.assistant.create({ firstMessage: 'Hello there.', transcriber: custom(u, { server: { url: u, timeoutSeconds } }) } as never)) as { id: string };
          return ((await emu.client.call.create({ assistantId: a.id, customer: { number: '+14155550100' } } as never)) as { id: string }).id;
        };
        const [failing, healthy] = await Promise.all([place(url, 1), place(good.url, 10)]);
        await emu.calls.idle();
        expect(((await emu.client.call.get(failing)) as Json).endedReason).toBe(reason);
        expect(await logsOf(emu.url, failing)).toContain(cause);
        const fine = (await emu.client.call.get(healthy)) as Json;
        expect(fine.endedReason).not.toMatch(/transcriber/);
        expect(String((fine.artifact as Json).transcript)).toContain('User: I need to reschedule');
      } finally {
        await emu.close();
      }
    },
    30_000,
  );
});
