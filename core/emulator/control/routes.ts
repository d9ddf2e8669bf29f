// The emulator's own endpoints, under `/__voice/` (a path the platform never uses): ring a
// number, read a call's deliveries, follow the record live, fetch a call's recording, and what
// the inspector page adds: re-send a delivery, end a running call, speak as its customer, a
// request's bodies, its files.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors.js';
import { parseJson, parseQuery, readBody, sendJson } from '../http/io.js';
import { INSPECTOR_PATH, serveInspector } from './inspector.js';
import { maskBody, maskSecrets } from '../store/mask.js';
import type { EmulatorRecord } from '../store/record.js';
import { DEFAULT_TIMEOUT_SECONDS, deliver, liveLineOf } from '../calls/index.js';
import type { ServerMessage } from '../../messages/index.js';
import type { Store } from '../store/store.js';
import type { CallRunner } from '../calls/index.js';
import { streamEvents } from './stream.js';
// The same audio as `GET /call/{id}/mono-recording`, so the inspector plays what the API serves.
import { CONTROL_PATHS } from './paths.js';

/** The fastest the clock may run (as `voice dev --speed`). */
export const MAX_SPEED = 10_000;

/** Paths of the emulator's own endpoints. */
export const VOICE_PATHS = {
  ring: CONTROL_PATHS.ring,
  deliveries: CONTROL_PATHS.deliveries,
  events: CONTROL_PATHS.events,
  recording: CONTROL_PATHS.recording,
  info: CONTROL_PATHS.info,
  speed: CONTROL_PATHS.speed,
  requests: CONTROL_PATHS.requests,
  calls: CONTROL_PATHS.calls,
  inspector: INSPECTOR_PATH,
} as const;

/** What the endpoints read. */
export interface VoiceRoutesDeps {
  store: Store;
  record: EmulatorRecord;
  runner: CallRunner;
  /** Throws a 401 unless the request may act (ringing needs the key when one is set). */
  authorize: (header: string | undefined) => void;
  /** Folder of the built inspector page; unset: no inspector. */
  inspectorDir?: string;
  /** Whether secured requests need a set key (the page then asks for it; it never sees it otherwise). */
  apiKeyRequired: boolean;
  /** Whether assistants run on a model (an endpoint or a cassette); false: their conversations are scripted. */
  model?: boolean;
}

/** `POST /__voice/deliveries/{id}/replay`: sends the recorded message again to the same URL with the same headers; answers 201 with the new delivery. */
async function replay(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps, id: string): Promise<void> {
  deps.authorize(req.headers.authorization);
  const original = deps.record.delivery(id);
  if (!original) throw new HttpError(404, `No delivery ${id} in the record`);
  const { url, request, callId } = original;
  const done = await deliver(deps.record, { url, headers: request.headers, timeoutSeconds: DEFAULT_TIMEOUT_SECONDS }, callId, request.body.message as ServerMessage, undefined, id);
  sendJson(res, 201, maskSecrets(done.delivery));
}

/** `POST /__voice/calls/{id}/end` `{ by?: 'customer' }`: ends a running call now. */
async function endCall(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps, id: string): Promise<void> {
  deps.authorize(req.headers.authorization);
  const body = parseJson(await readBody(req));
  if (body.by !== undefined && body.by !== 'customer' && body.by !== 'operator') throw new HttpError(400, 'by must be "customer" (the customer hangs up) or "operator" (end the call)');
  if (!deps.store.get('call', id)) throw new HttpError(404, 'Call not found');
  if (!deps.runner.end(id, body.by === 'customer' ? 'customer' : 'operator')) throw new HttpError(409, 'The call is not running (it has ended, or it is a web call nobody joined)');
  sendJson(res, 200, deps.store.get('call', id));
}

/**
 * `POST /__voice/calls/{id}/say` `{ text, afterSeconds?, afterWords? }` or `{ dtmf }`: the customer
 * says `text` on a running call (over the assistant while it speaks, or at that point of its line),
 * or presses keys.
 */
async function say(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps, id: string): Promise<void> {
  deps.authorize(req.headers.authorization);
  const line = liveLineOf(parseJson(await readBody(req)));
  if (!deps.store.get('call', id)) throw new HttpError(404, 'Call not found');
  if (!deps.runner.say(id, line)) throw new HttpError(409, 'The call is not running (it has ended, has not been answered yet, or it is a web call nobody joined)');
  sendJson(res, 202, { callId: id, ...line });
}

/** `POST /__voice/speed` `{ speed }`: every call's clock runs at this speed from now on, calls under way included. */
async function setSpeed(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps): Promise<void> {
  deps.authorize(req.headers.authorization);
  const { speed } = parseJson(await readBody(req));
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED)
    throw new HttpError(400, `speed must be a number above 0, at most ${MAX_SPEED} (1 = real time), e.g. { "speed": 10 }`);
  const was = deps.runner.speed;
  deps.runner.setSpeed(speed);
  sendJson(res, 200, { speed, was, activeCalls: deps.runner.active });
}

function requestDetail(res: ServerResponse, deps: VoiceRoutesDeps, seq: number): void {
  const found = Number.isInteger(seq) ? deps.record.request(seq) : undefined;
  if (!found) throw new HttpError(404, 'No such request in the record (it keeps about the last 5000)');
  sendJson(res, 200, { ...found.event, requestBody: maskBody(found.bodies.request), responseBody: maskBody(found.bodies.response) });
}

async function ring(req: IncomingMessage, res: ServerResponse, deps: VoiceRoutesDeps): Promise<void> {
  if (req.method !== 'POST') throw new HttpError(405, `Use POST ${VOICE_PATHS.ring}`);
  deps.authorize(req.headers.authorization);
  const body = parseJson(await readBody(req));
  if (typeof body.phoneNumberId !== 'string' || !body.phoneNumberId) throw new HttpError(400, 'phoneNumberId is required: the id of the phone number to ring');
  if (body.from !== undefined && typeof body.from !== 'string') throw new HttpError(400, "from must be the caller's number, e.g. +15555550123");
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
    if (path === VOICE_PATHS.speed) {
      if (method !== 'POST') throw new HttpError(405, `Use POST ${path} (GET ${VOICE_PATHS.info} says the speed)`);
      await setSpeed(req, res, deps);
      return true;
    }
    if (path === VOICE_PATHS.ring) {
      await ring(req, res, deps);
      return true;
    }
    if (path.startsWith(INSPECTOR_PATH.slice(0, -1)) && deps.inspectorDir) {
      await serveInspector(req, res, deps.inspectorDir, path);
      return true;
    }
    const replayed = /^\/__voice\/deliveries\/([^/]+)\/replay$/.exec(path);
    const ended = /^\/__voice\/calls\/([^/]+)\/end$/.exec(path);
    const said = /^\/__voice\/calls\/([^/]+)\/say$/.exec(path);
    if (replayed || ended || said) {
      if (method !== 'POST') throw new HttpError(405, `Use POST ${path}`);
      if (replayed) await replay(req, res, deps, decodeURIComponent(replayed[1] as string));
      else if (said) await say(req, res, deps, decodeURIComponent(said[1] as string));
      else await endCall(req, res, deps, decodeURIComponent((ended as RegExpExecArray)[1] as string));
      return true;
    }
    if (method !== 'GET') throw new HttpError(405, `Use GET ${path}`);
    if (path === VOICE_PATHS.deliveries) {
      const callId = typeof query.callId === 'string' ? query.callId : undefined;
      if (callId && !deps.store.get('call', callId)) throw new HttpError(404, 'Call not found');
      // Shown with its secrets masked (a server's x-vapi-secret, a signature); the record keeps them to replay.
      sendJson(res, 200, maskSecrets(deps.record.deliveries(callId)));
      return true;
    }
    if (path.startsWith(`${VOICE_PATHS.deliveries}/`)) {
      const found = deps.record.delivery(decodeURIComponent(path.slice(VOICE_PATHS.deliveries.length + 1)));
      if (!found) throw new HttpError(404, 'No such delivery in the record');
      sendJson(res, 200, maskSecrets(found));
      return true;
    }
    const timeline = /^\/__voice\/calls\/([^/]+)\/timeline$/.exec(path);
    if (timeline) {
      const id = decodeURIComponent(timeline[1] as string);
      if (!deps.store.get('call', id)) throw new HttpError(404, 'Call not found');
      sendJson(res, 200, { callId: id, timeline: deps.runner.timeline(id) ?? null });
      return true;
    }
    if (path === VOICE_PATHS.info) {
      sendJson(res, 200, { speed: deps.runner.speed, apiKeyRequired: deps.apiKeyRequired, inspector: Boolean(deps.inspectorDir), model: Boolean(deps.model) });
      return true;
    }
    if (path.startsWith(VOICE_PATHS.requests)) {
      requestDetail(res, deps, Number(path.slice(VOICE_PATHS.requests.length)));
      return true;
    }
    if (path === VOICE_PATHS.events) {
      streamEvents(req, res, deps.record, deps.store, query);
      return true;
    }
    if (path.startsWith(VOICE_PATHS.recording) && path.endsWith('.wav')) {
      // `<id>.wav` is the mono recording (artifact.recordingUrl); `<id>.stereo.wav`, `.customer.wav`, `.assistant.wav` the others.
      const name = decodeURIComponent(path.slice(VOICE_PATHS.recording.length, -4));
      const kind = (['stereo', 'customer', 'assistant'] as const).find((k) => name.endsWith(`.${k}`)) ?? 'mono';
      const call = deps.store.get('call', kind === 'mono' ? name : name.slice(0, -kind.length - 1));
      if (!call || typeof call.startedAt !== 'string' || typeof call.endedAt !== 'string') throw new HttpError(404, 'No recording: the call is unknown, was never answered or has not ended');
      const wav = await deps.runner.recording(kind, call);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length, 'access-control-allow-origin': '*' });
      res.end(wav);
      return true;
    }
    return false;
  };
}
