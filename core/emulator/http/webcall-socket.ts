// The emulator's web calls, joinable: a WebSocket at `/__voice/webcall/<callId>` where the browser
// (voice/webcall's local transport) is the customer. This file only carries frames; the call
// itself is run by the call engine handed in as a `WebCallEngine`.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { asksForAudio, CLOSE_ENDED, LOCAL_WEBCALL_PATH } from '../../webcall/local-protocol.js';
import type { ClientFrame, ServerFrame } from '../../webcall/local-protocol.js';
import type { Rec, Store } from '../store/store.js';
import type { BrowserCustomer, WebCallEngine } from '../calls/index.js';

function refuse(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`);
}

/** Lets browsers join web calls on this server (`refusal` says why a page may not); returns how to close every open call socket. */
export function acceptWebCalls(server: Server, store: Store, engine: WebCallEngine, refusal: (req: IncomingMessage) => string | undefined = () => undefined): () => void {
  // ws is loaded on the first join: most emulator runs never see a web call.
  let sockets: Promise<WebSocketServer> | undefined;
  const socketServer = () => (sockets ??= import('ws').then((ws) => new ws.WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })));
  const joined = new Set<string>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (!path.startsWith(LOCAL_WEBCALL_PATH)) {
      // Another part of the emulator may answer this upgrade; when none does, say so.
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not a web call address');
      return;
    }
    // A socket is no CORS request: the page's Origin and the Host are checked here, as for REST.
    const refused = refusal(req);
    if (refused) return refuse(socket, 403, refused);
    const id = decodeURIComponent(path.slice(LOCAL_WEBCALL_PATH.length));
    const call = store.get('call', id);
    if (!call || call.type !== 'webCall') return refuse(socket, 404, `No web call ${id}`);
    if (call.status !== 'queued' || joined.has(id)) return refuse(socket, 409, `Web call ${id} is not waiting to be joined (it is ${String(call.status)})`);
    joined.add(id);
    socketServer().then(
      (wss) => wss.handleUpgrade(req, socket, head, (ws) => run(ws, call, engine, asksForAudio(req.url ?? ''))),
      (err: unknown) => refuse(socket, 500, `Web calls are unavailable: ${(err as Error).message}`),
    );
  });
  return () => {
    void sockets?.then((wss) => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    });
  };
}

/** Copies a binary frame into 16-bit samples (a Buffer's bytes need not be aligned for an Int16Array view). */
function samplesOf(raw: Buffer | ArrayBuffer | Buffer[]): Int16Array {
  const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
  const samples = new Int16Array(bytes.length >> 1);
  Buffer.from(samples.buffer).set(bytes.subarray(0, samples.length * 2));
  return samples;
}

/** Carries one call's frames between the browser and the engine (`audio`: the page asked for streamed audio). */
function run(ws: WebSocket, call: Rec, engine: WebCallEngine, audio: boolean): void {
  let streaming = false;
  let ended = false;
  let line = 0;
  const spoken = new Map<string, () => void>();
  const send = (frame: ServerFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const customer: BrowserCustomer = {
    message: (data) => send({ type: 'app-message', data }),
    speak: (text, seconds) =>
      new Promise<void>((resolve) => {
        if (ended) return resolve();
        const id = String(++line);
        // A browser that never reports the line played must not stall the call.
        const timer = setTimeout(() => finish(), seconds * 2000 + 3000);
        const finish = () => {
          clearTimeout(timer);
          spoken.delete(id);
          resolve();
        };
        spoken.set(id, finish);
        send({ type: 'speak', id, text, durationMs: Math.round(seconds * 1000) });
      }),
    silence: () => {
      send({ type: 'silence' });
      for (const done of [...spoken.values()]) done();
    },
    end: (endedReason) => {
      if (ended) return;
      ended = true;
      customer.silence();
      send({ type: 'left', endedReason });
      ws.close(CLOSE_ENDED, endedReason.slice(0, 120));
    },
  };
  if (audio)
    customer.audio = {
      start: (sampleRate) => {
        streaming = true;
        send({ type: 'audio', sampleRate });
      },
      send: (samples) => {
        if (!ended && ws.readyState === ws.OPEN) ws.send(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
      },
    };
  send({ type: 'joined', callId: call.id });
  const browser = engine(call, customer);
  ws.on('message', (raw, binary) => {
    if (binary) {
      if (streaming && !ended) browser.microphone?.(samplesOf(raw));
      return;
    }
    let frame: ClientFrame;
    try {
      frame = JSON.parse(String(raw)) as ClientFrame;
    } catch {
      return;
    }
    // `null`, a number, an array: JSON, but no frame (reading `.type` of null would throw in the socket's handler).
    if (!frame || typeof frame !== 'object') return;
    if (frame.type === 'customer-speech' && Number.isFinite(frame.durationMs)) browser.customerSpoke(frame.durationMs);
    else if (frame.type === 'customer-text' && typeof frame.text === 'string' && frame.text.trim()) browser.customerSaid(frame.text.trim().slice(0, 4000));
    else if (frame.type === 'spoken') spoken.get(String(frame.id))?.();
    else if (frame.type === 'recognition') browser.recognition?.(frame.working === true);
    else if (frame.type === 'app-message' && typeof frame.data === 'string') {
      if (frame.data === 'playable') return browser.playable();
      try {
        const message = JSON.parse(frame.data) as unknown;
        if (message && typeof message === 'object') browser.control(message as Record<string, unknown>);
      } catch {
        // Not JSON: nothing the platform acts on.
      }
    }
  });
  ws.on('close', () => {
    for (const done of [...spoken.values()]) done();
    if (ended) return;
    ended = true;
    browser.left();
  });
  ws.on('error', () => undefined);
}
