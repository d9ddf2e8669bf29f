// A call's recording is the call: an independent recogniser (Debian's pocketsphinx, with a grammar
// of the call's lines and decoys one word off) hears each line on its side's channel in order; the
// file lasts exactly as long as the call; cut-off speech is cut in the audio; the assistant's keys
// are tones on its channel.
import { channel, decodeWav, detectDtmf, encodeWav } from 'voice-agent-audio';
import { describe, expect, it } from 'vitest';
import { grammarWords, recognise, skipRecognition } from '../../../../audio/src/recognise.test-support.js';
import type { Json } from '../../../messages/index.js';
import { STAND_IN_REPLY } from '../conversation.js';
import { audioCall } from './calls.test-support.js';
import type { AudioCall } from './calls.test-support.js';

const FIRST = 'Thank you for calling the Blue Door restaurant';
const CUSTOMER = ['I would like to book a table for four people', 'Tomorrow evening at seven', 'Thank you very much goodbye'];
const DECOYS = [
  'Thank you for calling the Red Door restaurant',
  'I would like to book a table for five people',
  'Tomorrow morning at seven',
  'Thank you very much good night',
  'Sure I can help with this',
];

async function wavOf(c: AudioCall, kind: string): Promise<Uint8Array> {
  const res = await fetch(`${c.emu.url}/call/${String(c.call.id)}/${kind}-recording`, { headers: { authorization: 'Bearer k' } });
  expect(res.headers.get('content-type')).toBe('audio/wav');
  return new Uint8Array(await res.arrayBuffer());
}

const seconds = (call: Json): number => (Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt))) / 1000;

describe("a call's recording", () => {
  it.skipIf(skipRecognition)(
    'holds each line on its side, in order, heard by pocketsphinx; it lasts endedAt - startedAt',
    async () => {
      const c = await audioCall({ firstMessage: FIRST }, { turns: CUSTOMER.map((say) => ({ say })) });
      const stereo = decodeWav(await wavOf(c, 'stereo'));
      expect(stereo).toMatchObject({ sampleRate: 16000, channels: 2 });
      expect(Math.abs(stereo.samples.length / 2 / 16000 - seconds(c.call))).toBeLessThan(0.2);
      const phrases = [FIRST, ...CUSTOMER, STAND_IN_REPLY, ...DECOYS];
      const wav = (samples: Int16Array) => encodeWav({ samples, sampleRate: 16000 });
      const heardCustomer = recognise(wav(channel(stereo, 0).samples), phrases);
      const heardAssistant = recognise(wav(channel(stereo, 1).samples), phrases);
      expect(heardCustomer).toBe(CUSTOMER.map(grammarWords).join(' '));
      expect(heardAssistant).toBe([FIRST, STAND_IN_REPLY, STAND_IN_REPLY].map(grammarWords).join(' '));
    },
    120_000,
  );

  it('every kind is the whole call at 16 kHz: silence where nobody spoke, the cut where speech was cut, the dtmf tool as tones', async () => {
    const c = await audioCall(
      { firstMessage: FIRST, firstMessageInterruptionsEnabled: true, model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'dtmf' }] } },
      { turns: [{ say: 'Sorry, wrong number.', interrupt: { afterSeconds: 0.5 }, tools: [{ name: 'dtmf', arguments: { dtmf: '42#' } }] }] },
    );
    const length = seconds(c.call);
    for (const kind of ['mono', 'customer', 'assistant']) {
      const pcm = decodeWav(await wavOf(c, kind));
      expect(pcm.sampleRate).toBe(16000);
      expect(Math.abs(pcm.samples.length / 16000 - length)).toBeLessThan(0.2);
    }
    const assistant = decodeWav(await wavOf(c, 'assistant'));
    const first = c.events('speech')[0]!;
    expect(first.cut).toBeDefined();
    // After the cut the first message's audio stops: silence until the assistant's next sound.
    const after = assistant.samples.slice(Math.round((first.cut!.at + 0.02) * 16000), Math.round((first.cut!.at + 1) * 16000));
    expect(after.every((v) => v === 0)).toBe(true);
    expect(
      detectDtmf(assistant)
        .map((k) => k.key)
        .join(''),
    ).toBe('42#');
    expect(c.events('keys')).toMatchObject([{ side: 'assistant', digits: '42#' }]);
    // The artifact's URLs serve the same files.
    const artifact = c.call.artifact as { stereoRecordingUrl: string; recording: { stereoUrl: string; mono: Record<string, string> } };
    const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(artifact.recording.stereoUrl).toBe(artifact.stereoRecordingUrl);
    expect(await bytes(artifact.stereoRecordingUrl)).toEqual(Buffer.from(await wavOf(c, 'stereo')));
    expect(await bytes(artifact.recording.mono.assistantUrl!)).toEqual(Buffer.from(await wavOf(c, 'assistant')));
    expect(await bytes(artifact.recording.mono.customerUrl!)).toEqual(Buffer.from(await wavOf(c, 'customer')));
  });
});
