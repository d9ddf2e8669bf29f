// The response both Node paths of the transport answer with (node:http and undici), and what
// they share: form bodies as streams, deadlines in whole milliseconds.
import { headerOf } from '../http/undici.js';
import type { RawHeaders } from '../http/undici.js';
import type { TransportResponse } from './transport.js';
import { makeResponse } from './transport.js';

/** The raw header map as a Headers object (repeated headers appended). */
export function toHeaders(raw: RawHeaders): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const x of v) h.append(k, x);
    else if (v !== undefined) h.append(k, v);
  }
  return h;
}

/** A response from either Node path; a class so the hot path allocates no closures. */
export class NodeResponse implements TransportResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
    private readonly raw: RawHeaders,
    private readonly read: () => Promise<string>,
    private readonly readBytes?: () => Promise<Uint8Array>,
  ) {}

  header(name: string): string | null {
    return headerOf(this.raw, name);
  }

  text(): Promise<string> {
    return this.read();
  }

  bytes(): Promise<Uint8Array> {
    return this.readBytes ? this.readBytes() : this.read().then((t) => new TextEncoder().encode(t));
  }

  headers(): Headers {
    return toHeaders(this.raw);
  }

  toResponse(body: string): Response {
    return makeResponse(this.status, this.statusText, toHeaders(this.raw), body);
  }
}

/** Serialises form data into a content type and a byte stream (a file-backed Blob streams from disk). */
export function serialise(form: FormData): { contentType: string; stream: ReadableStream<Uint8Array> } {
  const res = new Response(form);
  return { contentType: res.headers.get('content-type') as string, stream: res.body as ReadableStream<Uint8Array> };
}

/** A timeout in whole milliseconds, 0 for none. */
export function limit(ms: number | undefined): number {
  return ms && ms > 0 && Number.isFinite(ms) ? Math.ceil(ms) : 0;
}
