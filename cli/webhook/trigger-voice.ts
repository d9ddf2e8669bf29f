// `voice trigger voice-request`: a custom voice server answers with raw audio, not JSON, so its
// answer is read as bytes and judged as the platform plays it: 1-channel 16-bit PCM at the asked
// `sampleRate` (whole samples, not empty, not JSON, not all silence) that lasts a sensible time for
// the text (4 to 40 characters a second: slower or faster is a wrong rate or a wrong text).
import { STATUS_CODES } from 'node:http';
import { postForAudio } from '#core/messages/post-audio';
import type { PostResult } from '#core/messages/post';
import type { TriggerResult } from './trigger-result.js';

/** Speaking rates a voice server's audio may have, in characters of text a second. */
const RATE = { slowest: 4, fastest: 40 } as const;

/** What is wrong with an answer's audio for `text` at `sampleRate`, and what it is. */
export function judgeVoiceAudio(bytes: Buffer, contentType: string | undefined, text: string, sampleRate: number): { problems: string[]; notes: string[] } {
  if (contentType?.includes('json')) return { problems: ['the answer is JSON: a voice-request is answered with the raw PCM audio itself (the published { data } shape only documents it)'], notes: [] };
  if (bytes.length === 0) return { problems: ['the answer is empty: no audio'], notes: [] };
  if (bytes.length % 2) return { problems: [`the answer has an odd number of bytes (${bytes.length}): 16-bit PCM has two bytes a sample`], notes: [] };
  const seconds = bytes.length / 2 / sampleRate;
  const problems: string[] = [];
  const chars = text.trim().length;
  const [shortest, longest] = [chars / RATE.fastest, chars / RATE.slowest];
  const said = `${seconds.toFixed(2)} s at ${sampleRate} Hz`;
  if (seconds < shortest) problems.push(`${said} is too short for ${chars} characters of text (at least ${shortest.toFixed(2)} s): is the audio at a higher rate than asked?`);
  if (seconds > longest) problems.push(`${said} is too long for ${chars} characters of text (at most ${longest.toFixed(2)} s): is the audio at a lower rate than asked, or stereo?`);
  let peak = 0;
  for (let i = 0; i < bytes.length; i += 2) peak = Math.max(peak, Math.abs(bytes.readInt16LE(i)));
  if (peak === 0) problems.push('the audio is all silence');
  return { problems, notes: [`audio: ${said} (${bytes.length} bytes of 16-bit mono PCM, peak ${Math.round((100 * peak) / 32768)}% of full scale)`] };
}

/** Sends a voice-request and judges the audio it gets back. */
export async function triggerVoice(url: string, body: string, message: Record<string, unknown>, headers: Record<string, string>, timeoutMs: number): Promise<TriggerResult> {
  const got = await postForAudio(url, body, { headers, timeoutMs });
  const ok = got.status !== undefined && got.status >= 200 && got.status < 300 && !got.failure;
  // A refusal or a JSON/text body is shown as the server wrote it; only what may be audio is counted as audio.
  const audioLike = ok && !/json|text/i.test(got.contentType ?? '');
  const delivery: PostResult = {
    url,
    ms: got.ms,
    text: !got.bytes.length
      ? ''
      : audioLike
        ? `(${got.bytes.length} bytes of audio${got.firstByteMs !== undefined ? `, the first after ${Math.round(got.firstByteMs)} ms` : ''})`
        : got.bytes.toString('utf8').slice(0, 240),
    ...(got.status !== undefined ? { status: got.status, statusText: STATUS_CODES[got.status] ?? '' } : {}),
    ...(got.contentType ? { contentType: got.contentType } : {}),
    ...(got.failure ? { failure: got.failure, ...(got.reason ? { reason: got.reason } : {}) } : {}),
  };
  const verdict = ok ? judgeVoiceAudio(got.bytes, got.contentType, String(message.text ?? ''), Number(message.sampleRate) || 24000) : undefined;
  return { type: 'voice-request', delivery, ...(verdict ?? {}) };
}
