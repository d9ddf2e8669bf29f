// A call's files: its recordings (WAV), packet capture and log file. The emulator's calls carry
// no real audio yet, so an ended call's recording is a stand-in made in code: short alternating
// tones, the assistant's turns at 440 Hz and the customer's at 330 Hz, on the channel of each
// side (stereo: customer left, assistant right). Before the call ends there is nothing to fetch.
import type { Ctx, Handler } from '../http/context.js';
import { find } from '../resources/crud.js';
import { HttpError } from '../errors.js';
import type { Rec } from '../store/store.js';
import { encodeWav, mix, silence, tone } from '../wav.js';
import { topLevel } from './place.js';

const CALL = { ...topLevel('call'), idParam: 'id' };
const RATE = 8000;
/** Longest stand-in recording, whatever the call's length. */
const MAX_SECONDS = 4;
const TURN_SECONDS = 0.5;

/** Which part of the conversation a download holds. */
export type RecordingKind = 'mono' | 'stereo' | 'customer' | 'assistant';

function ended(ctx: Ctx, what: string): Rec {
  const call = find(ctx, CALL);
  if (call.status !== 'ended') throw new HttpError(404, `No ${what} yet: call ${call.id} has not ended (status ${String(call.status ?? 'queued')})`);
  return call;
}

function secondsOf(call: Rec): number {
  const ms = Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt));
  return Number.isFinite(ms) && ms > 0 ? Math.min(MAX_SECONDS, ms / 1000) : 2;
}

/** The two sides of a stand-in conversation: turns alternate, the assistant speaking first. */
export function sides(seconds: number): { assistant: Int16Array; customer: Int16Array } {
  const assistant: Int16Array[] = [];
  const customer: Int16Array[] = [];
  for (let t = 0, turn = 0; t < seconds - 1e-9; t += TURN_SECONDS, turn++) {
    const len = Math.min(TURN_SECONDS, seconds - t);
    const speaking = tone(turn % 2 === 0 ? 440 : 330, len, RATE);
    assistant.push(turn % 2 === 0 ? speaking : silence(len, RATE));
    customer.push(turn % 2 === 0 ? silence(len, RATE) : speaking);
  }
  const join = (parts: Int16Array[]): Int16Array => {
    const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return { assistant: join(assistant), customer: join(customer) };
}

/** The WAV of one kind of recording for a call of `seconds`. */
export function recordingWav(kind: RecordingKind, seconds: number): Buffer {
  const { assistant, customer } = sides(seconds);
  const channels = kind === 'stereo' ? [customer, assistant] : kind === 'customer' ? [customer] : kind === 'assistant' ? [assistant] : [mix(assistant, customer)];
  return encodeWav({ sampleRate: RATE, channels });
}

/** The WAV of one kind of recording of an ended call: the one source of a call's audio. */
export function callRecordingWav(kind: RecordingKind, call: Rec): Buffer {
  return recordingWav(kind, secondsOf(call));
}

/** `GET /call/{id}/*-recording`: the WAV of an ended call; 404 before it ends. */
export function recording(kind: RecordingKind): Handler {
  return (ctx) => {
    const call = ended(ctx, 'recording');
    return { status: 200, body: callRecordingWav(kind, call), contentType: 'audio/wav' };
  };
}

/** `GET /call/{id}/video-recording`: the emulator records no video, so there is none to fetch. */
export const videoRecording: Handler = (ctx) => {
  const call = ended(ctx, 'video recording');
  throw new HttpError(404, `No video recording for call ${call.id}: the local emulator records audio only`);
};

/** `GET /call/{id}/pcap`: a valid packet capture with no packets (emulated calls send no RTP). */
export const pcap: Handler = (ctx) => {
  ended(ctx, 'packet capture');
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0); // magic: microsecond timestamps, little-endian
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(65535, 16); // snapshot length
  header.writeUInt32LE(1, 20); // link type: Ethernet
  return { status: 200, body: header, contentType: 'application/vnd.tcpdump.pcap' };
};

/** `GET /call/{id}/call-logs`: the call's log lines, one JSON object a line. */
export const callLogs: Handler = (ctx) => {
  const call = find(ctx, CALL);
  const lines = ctx.store
    .all('log')
    .filter((l) => l.callId === call.id)
    .map((l) => JSON.stringify(l));
  return { status: 200, body: Buffer.from(lines.length ? `${lines.join('\n')}\n` : ''), contentType: 'application/x-ndjson' };
};
