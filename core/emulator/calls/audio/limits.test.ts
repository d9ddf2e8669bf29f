// What a call with sound reports about itself: the messages each spoken line sends, its turn
// latencies (which measured, which derived, which stand-ins), and its end at maxDurationSeconds,
// with a recording as long as the call. All on the call's own clock.
import { decodeWav } from 'voice-agent-audio';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { audioCall } from './calls.test-support.js';

const LONG = 'We open at nine in the morning on weekdays, at ten on Saturdays, and we stay closed on Sundays and public holidays.';

describe('a call with sound reports', () => {
  it('speech-update started and stopped for each line, and turn latencies from its audio', async () => {
    const c = await audioCall({ firstMessage: 'Hello.', startSpeakingPlan: { waitSeconds: 0.4 } }, { turns: [{ say: 'Do you have a table tonight?' }, { say: 'Bye.' }] });
    const updates = c.hook.received.filter((r) => r.message.type === 'speech-update').map((r) => `${String(r.message.role)} ${String(r.message.status)}`);
    // The first message, then each customer line and the reply after it.
    expect(updates.slice(0, 6)).toEqual(['assistant started', 'assistant stopped', 'user started', 'user stopped', 'assistant started', 'assistant stopped']);
    const metrics = (c.call.artifact as Json).performanceMetrics as Json;
    const [first] = metrics.turnLatencies as Json[];
    // Endpointing: the rule for a line ending in punctuation; the turn: the customer's speech end to the reply's start.
    expect(first).toMatchObject({ endpointingLatency: 100, transcriberLatency: 0, turnLatency: 500 });
    expect(typeof first!.voiceLatency).toBe('number');
    // No model ran (scripted replies) and no recogniser: those are the stand-ins, said so.
    expect(metrics.simulated).toEqual(['modelLatency', 'transcriberLatency']);
  });

  it("the same timeline at any speed: each line lasts as long as its audio on the call's clock", async () => {
    const scenario = { turns: [{ say: "I'd like to book [0.8s] a table" }, { say: 'Bye.' }] };
    const said = (c: Awaited<ReturnType<typeof audioCall>>) => c.timeline.events.filter((e) => e.type !== 'latency');
    const slow = await audioCall({ firstMessage: 'Hello.' }, scenario, { speed: 20 });
    const fast = await audioCall({ firstMessage: 'Hello.' }, scenario, { speed: 1000 });
    expect(said(slow)).toEqual(said(fast));
    expect(slow.timeline.seconds).toBe(fast.timeline.seconds);
  });

  it('exceeded-max-duration at maxDurationSeconds, mid-line, with a recording exactly that long', async () => {
    const c = await audioCall({ firstMessage: LONG, maxDurationSeconds: 10 }, { turns: [{ say: 'Thanks.' }, { pauseSeconds: 30, say: 'Bye.' }] });
    expect(c.call.endedReason).toBe('exceeded-max-duration');
    const seconds = (Date.parse(String(c.call.endedAt)) - Date.parse(String(c.call.startedAt))) / 1000;
    expect(seconds).toBe(10);
    const res = await fetch(`${c.emu.url}/call/${String(c.call.id)}/stereo-recording`, { headers: { authorization: 'Bearer k' } });
    const stereo = decodeWav(new Uint8Array(await res.arrayBuffer()));
    expect(Math.abs(stereo.samples.length / 2 / stereo.sampleRate - 10)).toBeLessThan(0.2);
  });
});
