// The developer's own voice (`voice.provider: custom-voice`): each piece of an assistant line (cut
// by the voice's chunk plan) is posted as `voice-request` to `voice.server` with its headers,
// credential and timeout, after `voice-input` to the assistant's server where subscribed; the
// 1-channel 16-bit PCM answer at the asked `sampleRate` is the line's audio, resampled to the
// recording's rate, and its length is how long the line lasts. The call's clock is held while it
// waits for the first byte (the caller hears that silence, as with the model's answer), not while
// the rest streams in: the line starts once the first piece is received, and the later pieces,
// asked one after another meanwhile, are added as they arrive (assistant.ts). A voice that fails
// on the first piece hands over to `fallbackPlan.voices` in order (a built-in provider speaks with
// the local stand-in voice); when none is left the call ends `pipeline-error-custom-voice-failed`,
// the cause in its log. A later piece that fails ends the line where its audio ends (logged).
import type { Json } from '../../../messages/index.js';
import { postForAudio } from '../../../messages/post-audio.js';
import type { Delivery } from '../../store/record.js';
import { serverOf, withCredential } from '../deliver.js';
import type { CallSession } from '../session.js';
import { chunkPlanOf, chunksOf } from '../stack/chunks.js';
import type { SpeechLike, TimedWord } from './port.js';
import { SAMPLE_RATE } from './timeline.js';
import { joined } from './line-stream.js';
import type { Voices } from './voices.js';
import { isObject } from '../../../json.js';

/** The provider of the developer's own voice. */
export const CUSTOM_VOICE = 'custom-voice';

/** The rate the voice server is asked for (the reference's example); the answer is resampled to the recording's. */
export const VOICE_REQUEST_RATE = 24000;

/** The endedReason when no voice is left to speak. */
export const VOICE_FAILED = 'pipeline-error-custom-voice-failed';

/** A line's speech and how it was made: the ms the call waited for it, and the key of audio a voice server sent. */
export interface LineSpeech {
  /** The whole line's speech, or a voice server's first piece (the rest in `rest`). */
  speech: SpeechLike;
  /** A voice server's later pieces as they arrive; undefined: it failed, and the line stops before it. */
  rest?: Promise<SpeechLike | undefined>[];
  ms: number;
  /** Where the recording finds the line's samples (a voice server's audio is not made again). */
  audio?: string;
  /** What spoke it, for the timeline: the voice server's URL, or the stand-in. */
  voice?: { url: string; chunks: number; firstByteMs: number };
}

/** Whether the assistant speaks with a voice server. */
export function hasCustomVoice(assistant: Json | undefined): boolean {
  return isObject(assistant?.voice) && assistant.voice.provider === CUSTOM_VOICE;
}

/** 16-bit little-endian bytes as samples. */
function samplesOf(bytes: Buffer): Int16Array {
  const out = new Int16Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2);
  return out;
}

/** The words of `text` spread over `seconds` from `at`, each as long as its letters (a voice server sends no timings). */
export function spreadWords(text: string, at: number, seconds: number): TimedWord[] {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length + 1, 0);
  let t = at;
  return words.map((word) => {
    const start = t;
    t += (seconds * (word.length + 1)) / total;
    return { word, start, end: t };
  });
}

/** Why an answer is not usable audio, or undefined when it is. */
function badAnswer(status: number | undefined, bytes: Buffer, contentType: string | undefined): string | undefined {
  if (status !== undefined && (status < 200 || status >= 300)) {
    // What the server said about it (an error message), when it said it in words.
    const said = contentType && /json|text/.test(contentType) ? bytes.toString('utf8', 0, 240).trim() : '';
    return said ? `HTTP ${status}: ${said}` : `HTTP ${status}`;
  }
  if (contentType?.includes('json')) return 'the answer is JSON, not 16-bit PCM audio';
  if (bytes.length === 0) return 'the answer is empty (no audio)';
  if (bytes.length % 2) return `the answer has an odd number of bytes (${bytes.length}): not 16-bit PCM`;
  return undefined;
}

let made = 0;

/** One piece's audio at the recording's rate, or why the server gave none; the delivery is recorded either way. */
async function askPiece(
  s: CallSession,
  voices: Voices,
  target: NonNullable<ReturnType<typeof withCredential>>,
  piece: string,
  first: boolean,
): Promise<{ speech: SpeechLike; firstByteMs: number } | string> {
  const { record, clock } = s.deps;
  void s.send('voice-input', { input: piece });
  const message = s.message('voice-request', { text: piece, sampleRate: VOICE_REQUEST_RATE });
  const raw = JSON.stringify({ message });
  const headers = { 'content-type': 'application/json', 'user-agent': 'voice-emulator', ...target.headers, ...(target.sign ? await target.sign(raw) : {}) };
  let firstByte: () => void = () => undefined;
  const heard = new Promise<void>((resolve) => (firstByte = resolve));
  const asked = postForAudio(target.url, raw, { headers, timeoutMs: target.timeoutSeconds * 1000, signal: s.stop.signal, onFirstByte: firstByte });
  // The clock waits for the first piece's first byte (the silence the caller hears), not for the stream.
  if (first) await clock.hold(Promise.race([heard, asked]));
  const got = await asked;
  const bad = got.failure ? (got.reason ?? got.failure) : badAnswer(got.status, got.bytes, got.contentType);
  const delivery: Delivery = {
    id: record.nextDeliveryId(),
    callId: s.call.id,
    type: 'voice-request',
    url: target.url,
    sentAt: new Date().toISOString(),
    request: { headers, body: { message } },
    ms: Math.round(got.ms * 10) / 10,
    ...(got.status !== undefined ? { status: got.status } : {}),
    answer: { audio: { bytes: got.bytes.length, sampleRate: VOICE_REQUEST_RATE, seconds: got.bytes.length / 2 / VOICE_REQUEST_RATE, firstByteMs: Math.round(got.firstByteMs ?? 0) } },
    ...(bad ? { error: bad } : {}),
  };
  if (!s.cancelled.signal.aborted) record.add({ kind: 'delivery', callId: s.call.id, delivery });
  if (bad) return `${target.url}: ${bad}`;
  const samples = voices.port.resample({ samples: samplesOf(got.bytes), sampleRate: VOICE_REQUEST_RATE }, SAMPLE_RATE).samples;
  const seconds = samples.length / SAMPLE_RATE;
  return { speech: { text: piece, samples, sampleRate: SAMPLE_RATE, duration: seconds, words: spreadWords(piece, 0, seconds) }, firstByteMs: got.firstByteMs ?? got.ms };
}

/**
 * Asks one voice server for a line, piece by piece: the first piece's speech (a failed first piece:
 * why), the later pieces as they arrive (asked one after another while the line plays; a failed
 * one ends the line there, logged), and the key the recording finds the audio received under.
 */
async function fromServer(s: CallSession, voices: Voices, voice: Json, text: string): Promise<LineSpeech | string> {
  const target = withCredential(serverOf(voice), (id) => s.deps.store.get('credential', id));
  if (!target) return 'the voice has no server.url';
  const [head, ...tail] = chunksOf(text, chunkPlanOf(voice));
  const key = `custom-voice/${s.call.id}/${++made}`;
  const first = head === undefined ? { speech: { text, samples: new Int16Array(0), sampleRate: SAMPLE_RATE, duration: 0, words: [] }, firstByteMs: 0 } : await askPiece(s, voices, target, head, true);
  if (typeof first === 'string') return first;
  const parts = [first.speech];
  voices.record(key, joined(text, parts));
  const rest = tail.map(() => {
    let resolve!: (speech: SpeechLike | undefined) => void;
    const promise = new Promise<SpeechLike | undefined>((r) => (resolve = r));
    return { promise, resolve };
  });
  void (async () => {
    for (const [i, piece] of tail.entries()) {
      const got = s.ended ? 'the call ended' : await askPiece(s, voices, target, piece, false);
      if (typeof got === 'string') {
        if (!s.ended) s.log(`The custom voice failed for "${piece}" (${got}): the line stops after what it had said`, 'ERROR');
        for (const r of rest.slice(i)) r.resolve(undefined);
        return;
      }
      parts.push(got.speech);
      voices.record(key, joined(text, parts));
      rest[i]?.resolve(got.speech);
    }
  })();
  const firstByteMs = Math.round(first.firstByteMs);
  return { speech: first.speech, rest: rest.map((r) => r.promise), ms: firstByteMs, audio: key, voice: { url: target.url, chunks: tail.length + 1, firstByteMs } };
}

/**
 * The speech of an assistant line with a custom voice (see the file's comment): the voice server's,
 * a fallback's, or undefined once the call ended because no voice could speak it.
 */
export async function customSpeech(s: CallSession, voices: Voices, text: string): Promise<LineSpeech | undefined> {
  const voice = s.assistant?.voice as Json;
  const plan = isObject(voice.fallbackPlan) && Array.isArray(voice.fallbackPlan.voices) ? (voice.fallbackPlan.voices as unknown[]).filter(isObject) : [];
  const causes: string[] = [];
  for (const [i, candidate] of [voice, ...plan].entries()) {
    const name = i === 0 ? 'The custom voice' : `Fallback voice ${i} (${String(candidate.provider)})`;
    if (candidate.provider !== CUSTOM_VOICE) {
      s.log(`${name} speaks the line with the local stand-in voice (not the provider's) after: ${causes.join('; ')}`, 'WARN');
      return voices.speech('assistant', text);
    }
    const got = await fromServer(s, voices, candidate, text);
    if (typeof got !== 'string') {
      if (i > 0) s.log(`${name} spoke the line after: ${causes.join('; ')}`, 'WARN');
      return got;
    }
    if (s.ended) return undefined;
    causes.push(got);
    s.log(`${name} failed for "${text}": ${got}`, 'ERROR');
  }
  s.log(`No voice could speak the line (${causes.join('; ')}): the call ends ${VOICE_FAILED}`, 'ERROR');
  s.finish(VOICE_FAILED);
  return undefined;
}
