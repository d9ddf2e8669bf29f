// The load generator's HTTP/1.1 client. A load generator must not be the bottleneck, and a general
// client spends more per request than the whole rest of a delivery (undici: its dispatcher layers,
// a header write and a body write, a WebAssembly parser): like autocannon and wrk, this one writes
// each request as one piece on a kept-alive connection and reads the answer with a small parser
// (status, headers, a body by length, in chunks, or to the close): one connection is
// http-conn.ts, the pool of them per origin is here (why it is not core/http: core/http/README.md).
import { Conn } from './http-conn.js';
import type { HttpAnswer, PiecedBody } from './http-conn.js';
import type { ConnectionError } from '../client/errors.js';
import type { BodyParts } from './body.js';

export type { HttpAnswer, PiecedBody } from './http-conn.js';

/** A request's bytes in one buffer: its start (up to `content-length: `), the length, then the body's parts (one socket write, nothing encoded twice). */
function request(start: Buffer, body: BodyParts): Buffer {
  const length = `${body.bytes}\r\n\r\n`;
  const buf = Buffer.allocUnsafe(start.length + length.length + body.bytes);
  let at = start.copy(buf, 0);
  at += buf.write(length, at, 'latin1');
  for (const p of body.parts) at += typeof p === 'string' ? buf.write(p, at) : p.copy(buf, at);
  return buf;
}

/** Kept-alive connections to one origin, at most `max` at once; requests beyond wait their turn. */
export class Origin {
  private readonly idle: Conn[] = [];
  private readonly waiting: ((c: Conn) => void)[] = [];
  private open = 0;
  private readonly host: string;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly max: number,
  ) {
    this.host = url.host;
  }

  private conn(fresh = false): Promise<Conn> | Conn {
    if (!fresh) {
      const c = this.idle.pop();
      if (c) {
        c.socket.ref();
        return c;
      }
    }
    if (this.open < this.max || fresh) {
      this.open++;
      return new Conn(
        this.url,
        (c) => this.release(c),
        (c) => this.gone(c),
      );
    }
    return new Promise((r) => this.waiting.push(r));
  }

  private release(c: Conn): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else if (this.closed) c.socket.destroy();
    else {
      // An idle connection does not keep the process alive.
      c.socket.unref();
      this.idle.push(c);
    }
  }

  private gone(c: Conn): void {
    this.open--;
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    // A waiting request gets a new connection in place of the one that went.
    const next = this.waiting.length && !this.closed ? this.waiting.shift() : undefined;
    if (next) next(this.conn(true) as Conn);
  }

  /**
   * POSTs `body` to `path` with `head` (header lines, each ending in CRLF). `started` is called as
   * the request goes onto its connection, with the function that aborts it.
   */
  // The last request start written, as bytes: a run posts to one path with the same headers throughout.
  private last: { path: string; head: string; bytes: Buffer } | undefined;

  private start(path: string, head: string): string {
    return `POST ${path} HTTP/1.1\r\nhost: ${this.host}\r\n${head}content-length: `;
  }

  private startBytes(path: string, head: string): Buffer {
    const l = this.last;
    if (l && l.path === path && l.head === head) return l.bytes;
    this.last = { path, head, bytes: Buffer.from(this.start(path, head)) };
    return this.last.bytes;
  }

  async post(path: string, head: string, body: string | BodyParts | PiecedBody, started: (abort: (err: Error) => void) => void): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt++) {
      const got = this.conn();
      const c = got instanceof Conn ? got : await got;
      const reused = c.answers > 0;
      try {
        if (!c.connected) await c.ready;
        return await new Promise<HttpAnswer>((resolve, reject) => {
          c.expect({ resolve, reject });
          started((err) => {
            if (!c.pending) return;
            c.reusable = false;
            c.socket.destroy();
            c.pending.reject(err);
            c.pending = undefined;
          });
          if (typeof body === 'string') c.socket.write(`${this.start(path, head)}${Buffer.byteLength(body)}\r\n\r\n${body}`);
          else if ('parts' in body) c.socket.write(request(this.startBytes(path, head), body));
          else {
            c.socket.write(`${this.start(path, head)}${body.length}\r\n\r\n`);
            void (async () => {
              for await (const piece of body.pieces) if (!c.socket.destroyed) c.socket.write(piece);
            })();
          }
        });
      } catch (err) {
        // A kept-alive connection the server closed just as this request went out: sent again once on a new one.
        if (reused && attempt === 0 && (err as ConnectionError).code === 'ERETRY' && (typeof body === 'string' || 'parts' in body)) continue;
        throw err;
      }
    }
  }

  /** Closes every idle connection, and each busy one as its answer ends. */
  close(): void {
    this.closed = true;
    if (shared.get(this.url.origin) === this) shared.delete(this.url.origin);
    for (const c of this.idle.splice(0)) c.socket.destroy();
  }
}

const shared = new Map<string, Origin>();

/**
 * The process's kept-alive connections to `url`'s origin, shared by every load run in it, as
 * Node's own HTTP agents share theirs: back-to-back runs (a test suite's, a script's) go on with
 * the connections the last one left open instead of opening hundreds anew.
 */
export function originOf(url: URL, max: number): Origin {
  let o = shared.get(url.origin);
  if (!o) shared.set(url.origin, (o = new Origin(url, max)));
  return o;
}
