// One kept-alive HTTP/1.1 connection of the load generator's client: writes each request as one
// piece and reads the answer with a small parser (status, headers, a body by length, in chunks, or
// to the close). The pool over these connections is http.ts.
import { connect as tcp } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tls } from 'node:tls';
import { ConnectionError } from '../client/errors.js';

/** A server's answer. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/** A body sent in pieces (the slow and dropped faults); `length` is its whole size in bytes. */
export interface PiecedBody {
  length: number;
  pieces: AsyncIterable<Buffer>;
}

const CRLF2 = Buffer.from('\r\n\r\n');

interface Pending {
  resolve: (a: HttpAnswer) => void;
  reject: (e: Error) => void;
}

/** One kept-alive connection and the answer it is reading. */
export class Conn {
  readonly socket: Socket;
  pending: Pending | undefined;
  /** Bytes of the answer so far (headers not yet complete, or the body). */
  private buf: Buffer | undefined;
  private status = 0;
  private headersDone = false;
  /** Body bytes expected (-1: chunked, -2: until the close). */
  private length = 0;
  private body: Buffer[] = [];
  private bodyBytes = 0;
  private chunkLeft = 0;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  /** False once the server said it closes (or the answer ends at the close). */
  reusable = true;
  private error: string | undefined;
  /** Answers read on this connection so far. */
  answers = 0;
  /** True once a byte of the current answer came (a reused connection that closes before one is retried). */
  private answering = false;
  /** Settles when the connection is made (TLS included); answer times start after it. */
  readonly ready: Promise<void>;
  connected = false;

  constructor(
    url: URL,
    private readonly onIdle: (c: Conn) => void,
    private readonly onGone: (c: Conn) => void,
  ) {
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    this.socket = url.protocol === 'https:' ? tls({ host, port, servername: host, ALPNProtocols: ['http/1.1'] }) : tcp({ host, port });
    this.socket.setNoDelay(true);
    this.ready = new Promise<void>((resolve, reject) => {
      this.socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => ((this.connected = true), resolve()));
      this.socket.once('close', () => reject(new ConnectionError('could not connect', { code: this.error ?? 'ECONNRESET' })));
    });
    this.ready.catch(() => undefined);
    this.socket.on('data', (d: Buffer) => this.read(d));
    this.socket.on('error', (e: NodeJS.ErrnoException) => {
      this.error = e.code;
      this.fail(new ConnectionError(e.message, { code: e.code, cause: e }));
    });
    this.socket.on('close', () => {
      // An answer read to the close ends here.
      if (this.pending && this.headersDone && this.length === -2) this.done();
      else this.fail(new ConnectionError('the server closed the connection', { code: this.answers > 0 && !this.answering ? 'ERETRY' : 'ECONNRESET' }));
      this.onGone(this);
    });
  }

  /** Starts reading an answer for `p`. */
  expect(p: Pending): void {
    this.pending = p;
    this.answering = false;
    this.status = 0;
    this.headersDone = false;
    this.body = [];
    this.bodyBytes = 0;
    this.chunkState = 'size';
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = undefined;
    this.reusable = false;
    this.socket.destroy();
    p?.reject(e);
  }

  private done(): void {
    const p = this.pending as Pending;
    this.pending = undefined;
    this.buf = undefined;
    this.answers++;
    const text = this.body.length === 1 ? (this.body[0] as Buffer).toString('utf8') : Buffer.concat(this.body).toString('utf8');
    if (this.reusable) this.onIdle(this);
    else this.socket.destroy();
    p.resolve({ status: this.status, text });
  }

  private read(d: Buffer): void {
    this.answering = true;
    if (!this.pending) return this.fail(new ConnectionError('the server sent bytes nobody asked for'));
    let data = this.buf ? Buffer.concat([this.buf, d]) : d;
    this.buf = undefined;
    while (!this.headersDone) {
      const end = data.indexOf(CRLF2);
      if (end < 0) {
        if (data.length > 64 * 1024) return this.fail(new ConnectionError('the answer has headers over 64 KiB'));
        this.buf = data;
        return;
      }
      if (!this.head(data.toString('latin1', 0, end))) return;
      data = data.subarray(end + 4);
    }
    this.feed(data);
  }

  /** Reads a status line and headers; false when the answer was refused. */
  private head(text: string): boolean {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
    if (!m) {
      this.fail(new ConnectionError('the answer is not HTTP/1.x', { code: 'EPROTO' }));
      return false;
    }
    const status = Number(m[2]);
    // An interim answer (100 Continue, 103 Early Hints) comes before the real one.
    if (status >= 100 && status < 200) return true;
    let length = -2;
    let chunked = false;
    let close = m[1] === '0';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      // Only three headers matter here (content-length, transfer-encoding, connection); the others
      // are passed over by their name's length (HTTP allows no space before the colon).
      if (colon !== 14 && colon !== 17 && colon !== 10) continue;
      const name = line.slice(0, colon).toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.split(',').pop()?.trim() === 'chunked';
      else if (name === 'connection') close = value.includes('close') || (m[1] === '0' && !value.includes('keep-alive'));
    }
    this.status = status;
    this.headersDone = true;
    if (chunked) length = -1;
    else if (status === 204 || status === 304) length = 0;
    else if (!(length >= 0)) length = -2;
    this.length = length;
    if (close || length === -2) this.reusable = false;
    return true;
  }

  private feed(data: Buffer): void {
    if (this.length >= 0) {
      if (data.length) this.take(data.subarray(0, this.length - this.bodyBytes));
      if (this.bodyBytes >= this.length) this.done();
      return;
    }
    if (this.length === -2) {
      if (data.length) this.take(data);
      return;
    }
    let at = 0;
    while (at < data.length || this.chunkState === 'data') {
      if (this.chunkState === 'size' || this.chunkState === 'crlf' || this.chunkState === 'trailer') {
        const nl = data.indexOf('\r\n', at, 'latin1');
        if (nl < 0) {
          this.buf = data.subarray(at);
          return;
        }
        const line = data.toString('latin1', at, nl);
        at = nl + 2;
        if (this.chunkState === 'crlf') {
          if (line !== '') return this.fail(new ConnectionError('the answer has a chunk longer than its size', { code: 'EPROTO' }));
          this.chunkState = 'size';
        } else if (this.chunkState === 'trailer') {
          if (line === '') return this.done();
        } else {
          const size = parseInt(line, 16);
          if (!Number.isFinite(size)) return this.fail(new ConnectionError('the answer has a bad chunk size', { code: 'EPROTO' }));
          if (size === 0) this.chunkState = 'trailer';
          else {
            this.chunkLeft = size;
            this.chunkState = 'data';
          }
        }
      } else {
        if (at >= data.length) return;
        const piece = data.subarray(at, at + this.chunkLeft);
        this.take(piece);
        this.chunkLeft -= piece.length;
        at += piece.length;
        if (this.chunkLeft === 0) this.chunkState = 'crlf';
      }
    }
  }

  private take(b: Buffer): void {
    this.body.push(b);
    this.bodyBytes += b.length;
  }
}
