// One WebSocket to a developer's custom transcriber (`transcriber.server.url`): opened with the
// server's headers, the `start` text frame exactly as the reference documents it, the call's audio
// as binary frames (interleaved 16-bit stereo, customer channel 0, assistant channel 1), and the
// server's `transcriber-response` messages kept with the real time they arrived. A frame that is
// not such a message, or the socket closing, is the link's failure.
import type { WebSocket } from 'ws';

/** One `transcriber-response` the server sent, and when it arrived (performance.now()). */
export interface Transcription {
  text: string;
  channel: string;
  arrivedMs: number;
}

/** The `start` frame: the audio's format, as the reference documents it. */
export function startFrame(sampleRate: number): Record<string, unknown> {
  return { type: 'start', encoding: 'linear16', container: 'raw', sampleRate, channels: 2 };
}

/** An open link to one transcriber server. */
export class TranscriberLink {
  readonly heard: Transcription[] = [];
  /** Why the link stopped working, once it has. */
  failed: string | undefined;
  /** Told of each transcription as it arrives, and (with none) of the link's failure: a web call's live listener. */
  watch: ((heard: Transcription | undefined) => void) | undefined;
  private notify: (() => void) | undefined;

  private constructor(
    readonly url: string,
    private readonly socket: WebSocket,
  ) {
    socket.on('message', (data, binary) => {
      if (binary) return this.fail('it sent a binary frame (it should send transcriber-response JSON text)');
      let m: unknown;
      try {
        m = JSON.parse(String(data));
      } catch {
        return this.fail(`it sent a frame that is not JSON: ${String(data).slice(0, 80)}`);
      }
      const r = m as { type?: unknown; transcription?: unknown; channel?: unknown };
      if (r.type !== 'transcriber-response' || typeof r.transcription !== 'string') return this.fail(`it sent a frame that is not a transcriber-response: ${String(data).slice(0, 80)}`);
      const heard = { text: r.transcription, channel: String(r.channel), arrivedMs: performance.now() };
      this.heard.push(heard);
      this.watch?.(heard);
      this.wake();
    });
    socket.on('close', (code) => this.fail(`the connection closed (code ${code})`));
    socket.on('error', (e) => this.fail(`the connection failed: ${e.message}`));
  }

  /** Connects and sends the start frame; the link, or why it could not connect. */
  static async open(url: string, headers: Record<string, string>, timeoutMs: number, sampleRate: number): Promise<TranscriberLink | string> {
    // Loaded as the web-call socket loads it: only when a call needs it.
    const WS = await import('ws').then(
      (m) => m.default,
      () => undefined,
    );
    if (!WS) return 'the ws package is not installed here (npm install ws), so no WebSocket can be opened';
    const socket = new WS(url, { headers, handshakeTimeout: timeoutMs });
    const opened = await new Promise<string | undefined>((resolve) => {
      socket.once('open', () => resolve(undefined));
      socket.once('unexpected-response', (_req, res) => resolve(`the server answered HTTP ${res.statusCode} instead of opening a WebSocket`));
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'connection refused (is your transcriber running on that port?)' : e.message));
    });
    if (opened) {
      socket.terminate();
      return opened;
    }
    const link = new TranscriberLink(url, socket);
    socket.send(JSON.stringify(startFrame(sampleRate)));
    return link;
  }

  /** Sends call audio (interleaved stereo bytes). */
  send(bytes: Buffer): void {
    if (!this.failed && bytes.length) this.socket.send(bytes, { binary: true });
  }

  /** Resolves when a new transcription arrives, the link fails, or `ms` pass. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), ms);
      this.notify = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Closes the socket (the call ended). */
  close(): void {
    this.failed ??= 'closed by the call';
    this.socket.close(1000);
  }

  /** Marks the link failed, once, and tells `watch`: its own errors, or a call giving up on a transcriber that stays silent. */
  fail(reason: string): void {
    const first = this.failed === undefined;
    this.failed ??= reason;
    if (first) this.watch?.(undefined);
    this.wake();
  }

  private wake(): void {
    const n = this.notify;
    this.notify = undefined;
    n?.();
  }
}
