// An assistant line said as it is made (from its first piece on) is the same line as one made
// whole first: the same calls give the same timeline, the same transcript and the same recording,
// whichever way their lines were made. And a line made in pieces starts once its first piece is.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import type { Scenario } from '../scenario.js';
import { LINES } from './assistant.js';
import { audioCall } from './calls.test-support.js';
import { LineStream } from './line-stream.js';
import type { AudioPort, SpeechLike } from './port.js';
import type { TimelineEvent } from './timeline.js';
import { Voices } from './voices.js';

afterEach(() => {
  LINES.streamed = true;
});

const LONG = 'We open at nine in the morning on weekdays, at ten on Saturdays, and we stay closed on Sundays and public holidays.';
const REPLY = 'Certainly, I have noted that, it is two seats for Friday, and it is confirmed for you.';

/** A timeline's events without what the wall clock measured (the synthesis' milliseconds). */
function onItsClock(events: TimelineEvent[]): unknown[] {
  return events.map((e) => (e.type === 'latency' ? { ...e, voiceLatency: 0 } : e));
}

/** What a call gave: its timeline on its own clock, its transcript, and a digest of its stereo recording. */
async function outcome(assistant: Json, scenario: Scenario): Promise<unknown> {
  const c = await audioCall(assistant, scenario);
  const res = await fetch(`${c.emu.url}/call/${String(c.call.id)}/stereo-recording`, { headers: { authorization: 'Bearer k' } });
  const recording = createHash('sha256')
    .update(new Uint8Array(await res.arrayBuffer()))
    .digest('hex');
  return { events: onItsClock(c.timeline.events), seconds: c.timeline.seconds, transcript: c.transcript(), recording };
}

/** The same call (no model: a model's answer holds the clock for its real time) with its lines said as they are made, then made whole first. */
async function both(assistant: Json, scenario: Scenario): Promise<{ streamed: unknown; whole: unknown }> {
  LINES.streamed = true;
  const streamed = await outcome(assistant, scenario);
  LINES.streamed = false;
  return { streamed, whole: await outcome(assistant, scenario) };
}

const HOLD = 'Are you still there? I can wait, take your time, there is no hurry at all.';
const hooks = [{ on: 'customer.speech.timeout', options: { timeoutSeconds: 2, triggerMaxCount: 1 }, do: [{ type: 'say', exact: HOLD }] }];

describe('a line said as it is made', () => {
  it('gives the timeline, transcript and recording of the line made whole: an acknowledgement, a reply, a hook said in silence', async () => {
    const scenario: Scenario = { turns: [{ say: 'yeah', interrupt: { afterSeconds: 1 } }, { say: 'Can I book for Friday?' }, { pauseSeconds: 5, say: 'Bye.' }] };
    const { streamed, whole } = await both({ firstMessage: LONG, hooks, stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2, acknowledgementPhrases: ['yeah'] } }, scenario);
    expect(streamed).toEqual(whole);
    expect(JSON.stringify(streamed)).toContain(HOLD);
  }, 120_000);

  it('gives the same barge-in, and the same lines armed after words (the first message kept or cut)', async () => {
    const stop = { stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2 } };
    const cut = await both({ firstMessage: LONG, firstMessageInterruptionsEnabled: true, ...stop }, { turns: [{ say: 'Just the weekend.', interrupt: { afterSeconds: 2 } }, { say: 'Bye.' }] });
    expect(cut.streamed).toEqual(cut.whole);
    expect(JSON.stringify(cut.streamed)).toContain('"type":"interruption"');
    for (const interruptible of [false, true]) {
      const { streamed, whole } = await both(
        { firstMessage: LONG, firstMessageInterruptionsEnabled: interruptible, ...stop },
        { turns: [{ say: 'Sorry, can you hurry up?', interrupt: { afterWords: 12 } }, { say: 'Bye.' }] },
      );
      expect(streamed).toEqual(whole);
    }
  }, 120_000);
});

/** A synthesizer whose texts are made when the test says: each asked text waits in `asked`. */
function heldPort(): { port: AudioPort; asked: Map<string, (s: SpeechLike) => void> } {
  const asked = new Map<string, (s: SpeechLike) => void>();
  const synthesize = (text: string): Promise<SpeechLike> => new Promise((resolve) => asked.set(text, resolve));
  return { port: { synthesize, createSynthesizer: () => ({ threads: 2, synthesize }) } as unknown as AudioPort, asked };
}

const speechOf = (text: string, samples: number): SpeechLike => ({
  text,
  samples: new Int16Array(samples).fill(1),
  sampleRate: 16000,
  duration: samples / 16000,
  words: [{ word: text, start: 0, end: samples / 16000 }],
});

describe('Voices.pieces', () => {
  it('hands a line over once its first piece is made; the rest follow, and the whole line is those pieces joined', async () => {
    const { port, asked } = heldPort();
    const voices = new Voices(port);
    const started = voices.pieces('assistant', REPLY).then(({ pieces }) => LineStream.start(REPLY, pieces));
    expect([...asked.keys()]).toEqual(['Certainly,', 'I have noted that, it is two seats for Friday,', 'and it is confirmed for you.']);
    asked.get('Certainly,')!(speechOf('Certainly,', 8000));
    const line = await started;
    expect(line.seconds).toBe(0.5);
    expect(line.complete).toBe(false);
    asked.get('I have noted that, it is two seats for Friday,')!(speechOf('noted', 16000));
    asked.get('and it is confirmed for you.')!(speechOf('confirmed', 4000));
    expect((await line.next())!.words).toEqual([{ word: 'noted', start: 0.5, end: 1.5 }]);
    await line.next();
    expect(line.complete).toBe(true);
    const { speech } = await voices.speech('assistant', REPLY);
    expect(speech.words).toEqual(line.words);
    expect(Buffer.from(speech.samples.buffer).equals(Buffer.from(line.samples().buffer))).toBe(true);
  });
});
