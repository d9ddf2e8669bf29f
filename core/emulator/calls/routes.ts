// The emulator's own endpoints, under `/__voice/` (a path the platform never uses): ring a
// number, read a call's deliveries, follow the record live, fetch a call's recording.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors.js';
import { parseJson, parseQuery, readBody, sendJson } from '../http.js';
import type { EmulatorRecord, RecordEvent } from '../record.js';
import type { Store } from '../store.js';
import type { CallRunner } from './runner.js';
import { recordingWav } from './wav.js';

/** Paths of the emulator's own endpoints. */
export const VOICE_PATHS = {
  ring: '/__voice/ring',
  deliveries: '/__voice/deliveries',
  events: '/__voice/events',
  recording: '/__voice/recording/',
} as const;

/** What the endpoints read. */
export interface VoiceRoutesDeps {
  store: Store;
  record: EmulatorRecord;
  runner: CallRunner;
  /** Throws a 401 unless the request may act (ringing needs the key when one is set). */
  authorize: (header: string | undefined) => void;
}

function events(req: IncomingMessage, res: ServerResponse, record: EmulatorRecord, query: Record<string, string | string[]>): void {
  const callId = typeof query.callId === 'string' ? query.callId : undefined;
  const last = req.headers['last-event-id'];
  const since = Number(typeof query.since === 'string' ? query.since : typeof last === 'string' ? last : NaN);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'access-control-allow-origin': '*' });
  res.write('retry: 1000\n\n');
  const write = (e: RecordEvent): void => {
    if (callId && (!('callId' in e) || e.callId !== callId)) return;
    res.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify(e)}\n\n`);
  };
  if (Number.isFinite(since)) for (const e of record.list({ since, ...(callId ? { callId } : {}) })) write(e);
  const stop = record.subscribe(write);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  ping.unref();
  req.on('close', () => {
    stop();
    clearInterval(ping);
  });
}

async function ring(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps): Promise<void> {
  if (req.method !== 'POST') throw new HttpError(405, `Use POST ${VOICE_PATHS.ring}`);
  deps.authorize(req.headers.authorization);
  const body = parseJson(await readBody(req));
  if (typeof body.phoneNumberId !== 'string' || !body.phoneNumberId) throw new HttpError(400, 'phoneNumberId is required: the id of the phone number to ring');
  if (body.from !== undefined && typeof body.from !== 'string') throw new HttpError(400, 'from must be the caller\'s number, e.g. +15555550123');
  const call = deps.runner.ring(body.phoneNumberId, body.from as string | undefined);
  sendJson(res, 201, call);
}

/** Answers a `/__voice/...` request; returns false for any other path. */
export function voiceRoutes(deps: VoiceRoutesDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (!path.startsWith('/__voice/')) return false;
    const query = parseQuery(at < 0 ? '' : url.slice(at + 1));
    const method = req.method ?? 'GET';
    if (path === VOICE_PATHS.ring) {
      await ring(req, res, deps);
      return true;
    }
    if (method !== 'GET') throw new HttpError(405, `Use GET ${path}`);
    if (path === VOICE_PATHS.deliveries) {
      const callId = typeof query.callId === 'string' ? query.callId : undefined;
      if (callId && !deps.store.get('call', callId)) throw new HttpError(404, 'Call not found');
      sendJson(res, 200, deps.record.deliveries(callId));
      return true;
    }
    if (path === VOICE_PATHS.events) {
      events(req, res, deps.record, query);
      return true;
    }
    if (path.startsWith(VOICE_PATHS.recording) && path.endsWith('.wav')) {
      const call = deps.store.get('call', decodeURIComponent(path.slice(VOICE_PATHS.recording.length, -4)));
      if (!call || typeof call.startedAt !== 'string' || typeof call.endedAt !== 'string') throw new HttpError(404, 'No recording: the call is unknown, was never answered or has not ended');
      const wav = recordingWav((Date.parse(call.endedAt) - Date.parse(call.startedAt)) / 1000);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length, 'access-control-allow-origin': '*' });
      res.end(wav);
      return true;
    }
    return false;
  };
}
