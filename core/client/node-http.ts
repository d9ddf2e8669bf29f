// The node:http path of the Node transport: requests start here (node:http loads faster than
// undici) on a keep-alive agent per protocol, with one deadline for the whole exchange.
import type * as HttpNs from 'node:http';
import type * as HttpsNs from 'node:https';
import { TimeoutError } from './errors.js';
import { limit, NodeResponse, serialise } from './node-response.js';
import type { TransportRequest, TransportResponse } from './transport.js';
import { VoiceError } from '../errors.js';

type Http = typeof HttpNs;

let http: { mod: Http; agent: HttpNs.Agent } | undefined;
let https: { mod: typeof HttpsNs; agent: HttpsNs.Agent } | undefined;

async function loadHttp(secure: boolean): Promise<{ mod: Pick<Http, 'request'>; agent: HttpNs.Agent }> {
  if (secure) {
    if (!https) {
      const mod = await import('node:https');
      https = { mod, agent: new mod.Agent({ keepAlive: true }) };
    }
    return https;
  }
  if (!http) {
    const mod = await import('node:http');
    http = { mod, agent: new mod.Agent({ keepAlive: true }) };
  }
  return http;
}

/** Sends one request over node:http(s). */
export async function viaHttp(req: TransportRequest): Promise<TransportResponse> {
  const { mod, agent } = await loadHttp(req.url.startsWith('https:'));
  const headers = { ...req.headers };
  let form: ReturnType<typeof serialise> | undefined;
  if (typeof req.body === 'string') headers['content-length'] = String(Buffer.byteLength(req.body));
  else if (req.body) {
    form = serialise(req.body);
    headers['content-type'] = form.contentType;
  }
  const ms = limit(req.timeoutMs);
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const timeout = (): TimeoutError => new TimeoutError(`No answer within ${ms} ms`);
    const out = mod.request(req.url, { method: req.method, headers, agent, signal: req.signal }, (res) => {
      if (!req.binary) res.setEncoding('utf8');
      // Read eagerly so an error in the body lands on one promise that is always handled.
      const body = new Promise<string | Buffer>((ok, fail) => {
        const ko = (error: unknown): void => {
          clearTimeout(timer);
          fail(timedOut ? timeout() : error);
        };
        let data = '';
        const chunks: Buffer[] = [];
        res.on(
          'data',
          req.binary
            ? (chunk: Buffer) => {
                chunks.push(chunk);
              }
            : (chunk: string) => {
                data += chunk;
              },
        );
        res.on('end', () => {
          clearTimeout(timer);
          ok(req.binary ? Buffer.concat(chunks) : data);
        });
        res.on('error', ko);
        res.on('close', () => {
          if (!res.complete) ko(new VoiceError('response aborted'));
        });
      });
      body.catch(() => undefined);
      const text = (): Promise<string> => body.then((b) => (typeof b === 'string' ? b : b.toString('utf8')));
      const bytes = req.binary ? () => body.then((b) => new Uint8Array(b as Buffer)) : undefined;
      resolve(new NodeResponse(res.statusCode ?? 0, res.statusMessage ?? '', res.headers, text, bytes));
    });
    out.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // One deadline for the whole exchange, headers and body.
    if (ms) {
      timer = setTimeout(() => {
        timedOut = true;
        out.destroy(timeout());
      }, ms);
      // The socket keeps the process alive while a request is open; the timer need not.
      timer.unref();
    }
    if (typeof req.body === 'string') out.end(req.body);
    else if (form) {
      void (async () => {
        try {
          for await (const chunk of form.stream as unknown as AsyncIterable<Uint8Array>) {
            if (!out.write(chunk)) await new Promise((ok) => out.once('drain', ok));
          }
          out.end();
        } catch (error) {
          out.destroy(error as Error);
        }
      })();
    } else out.end();
  });
}
