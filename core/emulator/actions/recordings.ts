// A call's files: its recordings (WAV: the call's audio, or the stand-in of a text-timeline call), packet capture
// and log file. Before the call ends there is nothing to fetch.
import type { Ctx, Handler } from '../http/context.js';
import { find } from '../resources/crud.js';
import { HttpError } from '../errors.js';
import type { Rec } from '../store/store.js';
import { callRecordingWav } from '../calls/index.js';
import type { RecordingKind } from '../calls/index.js';
import { topLevel } from './place.js';

const CALL = { ...topLevel('call'), idParam: 'id' };

function ended(ctx: Ctx, what: string): Rec {
  const call = find(ctx, CALL);
  if (call.status !== 'ended') throw new HttpError(404, `No ${what} yet: call ${call.id} has not ended (status ${String(call.status ?? 'queued')})`);
  return call;
}

/** `GET /call/{id}/*-recording`: the WAV of an ended call; 404 before it ends. */
export function recording(kind: RecordingKind): Handler {
  return async (ctx) => {
    const call = ended(ctx, 'recording');
    const runner = ctx.env.calls;
    return { status: 200, body: runner?.recording ? await runner.recording(kind, call) : callRecordingWav(kind, call), contentType: 'audio/wav' };
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
