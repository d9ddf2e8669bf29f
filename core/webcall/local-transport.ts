// The local implementation of CallTransport: joins an emulator's web call over a WebSocket, with
// the browser as the customer. Loaded with import() only for emulator calls (as daily-js is only
// for Daily calls). The assistant is a remote participant named like Daily's, so the session plays
// it, measures it and reports it exactly as it does a Daily call. When the emulator says the call
// has sound, the assistant is its streamed audio and the microphone's audio goes back to it.
import { AssistantVoice, MicrophoneLevel } from './local-audio.js';
import { audioSocketUrl } from './local-protocol.js';
import { MicrophoneUplink } from './local-uplink.js';
import { recognizeCustomer } from './local-recognition.js';
import type { CustomerRecognizer } from './local-recognition.js';
import type { ClientFrame, ServerFrame } from './local-protocol.js';
import { SPEECH_THRESHOLD } from './speech.js';
import type { CallTransport, TransportEvent, TransportParticipant, TransportRequest } from './types.js';
import { VoiceError } from '../errors.js';

/** Loud for this long counts as the customer speaking. */
const TURN_START_MS = 300;
/** Quiet for this long after speaking ends the customer's turn. */
const TURN_END_MS = 800;
const TICK_MS = 100;

const SPEAKER: TransportParticipant = { sessionId: 'local-assistant', userName: 'Vapi Speaker', local: false };

/** Asks for the microphone the way the call object options name it (true, a device id, or a track). */
async function openMicrophone(source: TransportRequest['audioSource']): Promise<MediaStream> {
  if (typeof source === 'object') return new MediaStream([source]);
  const audio = typeof source === 'string' ? { deviceId: { exact: source } } : true;
  return navigator.mediaDevices.getUserMedia({ audio });
}

/** Creates the transport for one local call. */
export async function createLocalTransport(request: TransportRequest): Promise<CallTransport> {
  return new LocalTransport(request);
}

/** CallTransport over the emulator's web-call socket. */
class LocalTransport implements CallTransport {
  private readonly listeners = new Set<(event: TransportEvent) => void>();
  private readonly context = new AudioContext();
  private readonly voice = new AssistantVoice(this.context, true);
  private socket: WebSocket | null = null;
  private mic: MicrophoneLevel | null = null;
  /** The call has sound: the assistant's audio comes at this rate, and the microphone goes back at it. */
  private rate = 0;
  private uplink: MicrophoneUplink | null = null;
  /** Whether the emulator was last told speech recognition works. */
  private recognising = false;
  /** The browser's speech recognition, where offered: its phrases are the customer's turns. */
  private recognizer: CustomerRecognizer | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private localObserver: ReturnType<typeof setInterval> | undefined;
  private received = false;
  private joined = false;
  private leaving = false;
  private left = false;
  private loudMs = 0;
  private speakingSince = 0;
  private lastLoud = 0;

  constructor(private readonly request: TransportRequest) {}

  async join(options: { url: string }): Promise<void> {
    const stream = await openMicrophone(this.request.audioSource);
    this.mic = new MicrophoneLevel(this.context, stream);
    const socket = new WebSocket(audioSocketUrl(options.url));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) {
          if (this.rate) this.voice.play(new Int16Array(event.data, 0, event.data.byteLength >> 1), this.rate);
          return;
        }
        let frame: ServerFrame;
        try {
          frame = JSON.parse(String(event.data)) as ServerFrame;
        } catch {
          return;
        }
        if (frame.type === 'joined') {
          this.joined = true;
          resolve();
        }
        this.frame(frame);
      };
      socket.onclose = (event) => {
        reject(new VoiceError(event.reason || `Could not join the local call at ${options.url} (socket closed, code ${event.code}).`));
        this.closed();
      };
      socket.onerror = () => undefined;
    });
    this.recognizer = recognizeCustomer((text) => this.send({ type: 'customer-text', text }));
    this.recognising = this.recognizer?.working ?? false;
    this.send({ type: 'recognition', working: this.recognising });
    this.ticker = setInterval(() => this.listen(), TICK_MS);
    // As in a Daily room, the assistant is a participant already there when the customer joins.
    queueMicrotask(() => this.emit({ type: 'participant-joined', participant: SPEAKER }));
  }

  async leave(): Promise<void> {
    this.leaving = true;
    this.voice.silence();
    const socket = this.socket;
    if (!socket || socket.readyState >= WebSocket.CLOSING) return this.closed();
    await new Promise<void>((resolve) => {
      socket.addEventListener('close', () => resolve());
      socket.close(1000, 'customer-ended-call');
      setTimeout(resolve, 1000);
    });
    this.closed();
  }

  async destroy(): Promise<void> {
    this.recognizer?.stop();
    clearInterval(this.ticker);
    clearInterval(this.localObserver);
    this.uplink?.close();
    this.socket?.close(1000);
    this.voice.close();
    this.mic?.close();
    this.listeners.clear();
    await this.context.close().catch(() => undefined);
  }

  subscribe(listener: (event: TransportEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sendAppMessage(data: string): void {
    this.send({ type: 'app-message', data });
  }

  setLocalAudio(enabled: boolean): void {
    if (this.mic) this.mic.enabled = enabled;
    if (this.recognizer) this.recognizer.enabled = enabled;
  }

  localAudio(): boolean {
    return this.mic?.enabled ?? false;
  }

  receive(sessionId: string, tracks: { audio: boolean }): void {
    if (sessionId !== SPEAKER.sessionId || !tracks.audio || this.received) return;
    this.received = true;
    this.emit({ type: 'track-started', participant: SPEAKER, track: this.voice.track });
  }

  async startRemoteAudioLevelObserver(): Promise<void> {
    // Levels are read from the assistant's audio graph whenever asked.
  }

  remoteAudioLevels(): Record<string, number> {
    return { [SPEAKER.sessionId]: this.voice.level() };
  }

  async setNoiseCancellation(): Promise<void> {
    // No processor in local calls: the microphone only decides when the customer talks.
  }

  startRecording(): void {
    this.emit({ type: 'pass-through', name: 'recording-error', payload: { errorMsg: 'Local calls are not recorded.' } });
  }

  stopRecording(): void {}

  async setInputDevices(options: { audioDeviceId?: string | false | null; audioSource?: MediaStreamTrack | false }): Promise<void> {
    const source = options.audioSource || options.audioDeviceId;
    if (!source || !this.mic) return;
    const enabled = this.mic.enabled;
    const previous = this.mic.stream;
    this.mic.use(await openMicrophone(source));
    this.mic.enabled = enabled;
    // A track the app handed over stays the app's; a stream opened here is released.
    if (typeof this.request.audioSource !== 'object') for (const track of previous.getTracks()) track.stop();
  }

  async setOutputDevice(): Promise<void> {}

  async startLocalAudioLevelObserver(intervalMs = TICK_MS): Promise<void> {
    clearInterval(this.localObserver);
    this.localObserver = setInterval(() => this.emit({ type: 'local-audio-level', level: this.localAudioLevel() }), intervalMs);
  }

  stopLocalAudioLevelObserver(): void {
    clearInterval(this.localObserver);
    this.localObserver = undefined;
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.localObserver !== undefined;
  }

  localAudioLevel(): number {
    return this.mic?.level() ?? 0;
  }

  startScreenShare(): void {}

  stopScreenShare(): void {}

  raw(): null {
    return null;
  }

  private emit(event: TransportEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private send(frame: ClientFrame | Int16Array): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(frame instanceof Int16Array ? frame : JSON.stringify(frame));
  }

  private frame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'app-message':
        return this.emit({ type: 'app-message', data: frame.data });
      case 'speak':
        return this.voice.speak(frame.text, frame.durationMs, () => this.send({ type: 'spoken', id: frame.id }));
      case 'audio':
        if (this.rate || !this.mic) return;
        this.rate = frame.sampleRate;
        this.uplink = new MicrophoneUplink(this.context, this.mic.node, frame.sampleRate, (samples) => this.send(samples));
        return;
      case 'silence':
        return this.voice.silence();
      case 'left':
        this.voice.silence();
    }
  }

  /** The socket is gone: whoever closed it, the meeting is over for this browser. */
  private closed(): void {
    if (this.left) return;
    this.left = true;
    this.recognizer?.stop();
    clearInterval(this.ticker);
    this.uplink?.close();
    this.voice.silence();
    if (this.joined) this.emit({ type: 'left' });
  }

  /** Turns the microphone's level into customer turns: loud for a moment, then quiet (unless speech recognition says what was said). */
  private listen(): void {
    const working = this.recognizer?.working ?? false;
    // Recognition that failed (no service, not allowed): the emulator makes wordless turns from then on.
    if (working !== this.recognising) this.send({ type: 'recognition', working: (this.recognising = working) });
    // With sound, the emulator's voice activity detector hears the microphone itself.
    if (working || this.rate) return;
    const now = performance.now();
    if ((this.mic?.level() ?? 0) > SPEECH_THRESHOLD) {
      this.loudMs += TICK_MS;
      this.lastLoud = now;
      if (this.loudMs === TURN_START_MS) this.speakingSince = now - TURN_START_MS;
      return;
    }
    if (this.loudMs >= TURN_START_MS && now - this.lastLoud >= TURN_END_MS) {
      this.send({ type: 'customer-speech', durationMs: Math.round(this.lastLoud - this.speakingSince) });
      this.loudMs = 0;
    } else if (this.loudMs < TURN_START_MS) this.loudMs = 0;
  }
}
