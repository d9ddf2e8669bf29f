// When the customer's turn is over and when the assistant starts (startSpeakingPlan), the
// `customer.speech.timeout` hook, keys, and noise: all on the call's own clock, read from its
// timeline (the speed only changes how long the test waits, never what happened).
import { detectDtmf, speechLevel } from 'voice-agent-audio';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { audioCall } from './calls.test-support.js';
import { renderChannels } from './render.js';
import { Voices } from './voices.js';

const PAUSED = "I'd like to book [0.8s] a table for two";
const endpointing = (onNoPunctuationSeconds: number) => ({ startSpeakingPlan: { transcriptionEndpointingPlan: { onNoPunctuationSeconds } } });

describe('endpointing and waitSeconds (startSpeakingPlan)', () => {
  it('a 0.8 s pause mid-sentence stays one turn with onNoPunctuationSeconds 1.5, and makes two with 0.4', async () => {
    const scenario = { turns: [{ say: PAUSED }, { say: 'Bye.' }] };
    const one = await audioCall({ firstMessage: 'Hello.', ...endpointing(1.5) }, scenario);
    expect(one.transcript().filter((l) => l.startsWith('User:'))).toEqual(["User: I'd like to book a table for two", 'User: Bye.']);
    expect(one.events('pause')).toHaveLength(1);
    expect(one.events('pause')[0]!.end - one.events('pause')[0]!.at).toBeCloseTo(0.8, 3);

    const two = await audioCall({ firstMessage: 'Hello.', ...endpointing(0.4) }, scenario);
    expect(two.transcript().filter((l) => l.startsWith('User:'))).toEqual(["User: I'd like to book", 'User: a table for two', 'User: Bye.']);
    const [first] = two.events('endpoint');
    expect(first).toMatchObject({ rule: 'onNoPunctuationSeconds', seconds: 0.4, transcript: "I'd like to book" });
    // The detector's speech-end decides: the turn is judged over 0.4 s after it.
    expect(first!.at - first!.speechEnd).toBeCloseTo(0.4, 3);
  });

  it("waitSeconds moves the start of the assistant's reply by its value", async () => {
    const scenario = { turns: [{ say: 'Do you have a table tonight?' }, { say: 'Bye.' }] };
    const replyStart = async (waitSeconds: number) => {
      const c = await audioCall({ firstMessage: 'Hello.', startSpeakingPlan: { waitSeconds } }, scenario);
      const endpoint = c.events('endpoint')[0]!;
      const reply = c.events('speech').find((e) => e.side === 'assistant' && e.source === 'reply')!;
      return { endpoint, reply, latency: c.events('latency')[0]! };
    };
    const soon = await replyStart(0.4);
    const late = await replyStart(1.9);
    expect(soon.reply.at - soon.endpoint.at).toBeCloseTo(0.4, 3);
    expect(late.reply.at - late.endpoint.at).toBeCloseTo(1.9, 3);
    expect(late.reply.at - soon.reply.at).toBeCloseTo(1.5, 3);
    // The turn's latencies say the same: the endpointing rule's wait, and the whole gap.
    expect(soon.latency).toMatchObject({ endpointingLatency: 100, turnLatency: 500 });
  });

  it('customEndpointingRules come first: a customer regex sets the wait', async () => {
    const rules = { startSpeakingPlan: { customEndpointingRules: [{ type: 'customer', regex: 'number', timeoutSeconds: 2.5 }] } };
    const c = await audioCall({ firstMessage: 'Hello.', ...rules }, { turns: [{ say: 'My number is' }, { say: 'Bye.' }] });
    expect(c.events('endpoint')[0]).toMatchObject({ rule: 'customEndpointingRules[0]', seconds: 2.5 });
  });
});

describe('customer.speech.timeout', () => {
  it('says "Are you still there?" after timeoutSeconds of silence from the end of the assistant\'s turn, at most triggerMaxCount times', async () => {
    const hooks = [{ on: 'customer.speech.timeout', options: { timeoutSeconds: 3, triggerMaxCount: 2 }, do: [{ type: 'say', exact: 'Are you still there?' }] }];
    const silent = (say: string) => ({ pauseSeconds: 6, say });
    const c = await audioCall({ firstMessage: 'Hello.', hooks }, { turns: [silent('Yes, sorry.'), silent('Still here.'), silent('Bye.')] });
    const fired = c.events('hook');
    expect(fired.map((h) => h.count)).toEqual([1, 2]);
    const said = c.events('speech').filter((e) => e.source === 'hook');
    expect(said.map((e) => e.text)).toEqual(['Are you still there?', 'Are you still there?']);
    // Each 3 s after the assistant's turn ended.
    const turnEnds = c.events('speech').filter((e) => e.side === 'assistant' && e.source !== 'hook');
    for (const line of said) expect(turnEnds.some((t) => Math.abs(line.at - t.end - 3) < 1e-3)).toBe(true);
    expect(c.transcript().filter((l) => l === 'AI: Are you still there?')).toHaveLength(2);
  });

  it('triggerResetMode onUserSpeech lets it fire again once the customer spoke', async () => {
    const hooks = [{ on: 'customer.speech.timeout', options: { timeoutSeconds: 2, triggerMaxCount: 1, triggerResetMode: 'onUserSpeech' }, do: [{ type: 'say', exact: 'Hello?' }] }];
    const c = await audioCall(
      { firstMessage: 'Hi.', hooks },
      {
        turns: [
          { pauseSeconds: 4, say: 'Yes.' },
          { pauseSeconds: 4, say: 'Bye.' },
        ],
      },
    );
    expect(c.events('hook').map((h) => h.count)).toEqual([1, 1]);
  });
});

describe('keys and noise', () => {
  it('keys 1 2 3 # become one user turn (keypadInputPlan), and their tones are in the customer channel', async () => {
    const c = await audioCall({ firstMessage: 'Enter your code.', keypadInputPlan: { enabled: true, delimiters: '#' } }, { turns: [{ dtmf: '123#' }, { pauseSeconds: 1, say: 'Bye.' }] });
    expect(c.transcript()).toContain("User: User's Keypad Entry: 123");
    const wav = await (await fetch(`${c.emu.url}/call/${String(c.call.id)}/customer-recording`, { headers: { authorization: 'Bearer k' } })).arrayBuffer();
    const { decodeWav } = await import('voice-agent-audio');
    expect(
      detectDtmf(decodeWav(new Uint8Array(wav)))
        .map((k) => k.key)
        .join(''),
    ).toBe('123#');
  });

  it('noise at 5 dB SNR is in the customer channel, and the customer is still heard', async () => {
    const c = await audioCall({ firstMessage: 'Hello.' }, { noise: { snrDb: 5, seed: 7 }, turns: [{ say: 'I would like to book a table for two tonight.' }, { say: 'Bye.' }] });
    expect(c.transcript()).toContain('User: I would like to book a table for two tonight.');
    expect(c.events('vad').length).toBeGreaterThanOrEqual(2);
    const { decodeWav } = await import('voice-agent-audio');
    const customer = decodeWav(new Uint8Array(await (await fetch(`${c.emu.url}/call/${String(c.call.id)}/customer-recording`, { headers: { authorization: 'Bearer k' } })).arrayBuffer()));
    // Where nobody spoke (during the first message) the customer channel holds the noise: 5 dB under the speech.
    const greeting = c.events('speech')[0]!;
    const quiet = { samples: customer.samples.slice(Math.round(greeting.at * 16000), Math.round(greeting.end * 16000)), sampleRate: 16000 };
    const rms = (p: { samples: Int16Array }) => Math.sqrt(p.samples.reduce((a, v) => a + v * v, 0) / p.samples.length) / 32768;
    // The same call rendered without its noise gives the speech level the SNR is measured against.
    const audio = await import('voice-agent-audio');
    const clean = await renderChannels({ ...c.timeline, noise: undefined }, new Voices(audio));
    const snr = 20 * Math.log10(speechLevel({ samples: clean.customer, sampleRate: 16000 }) / rms(quiet));
    expect(snr).toBeCloseTo(5, 0);
    expect((c.call.artifact as Json).performanceMetrics).toBeDefined();
  });
});
