// The user's microphone in a call: mute, a boosted copy through a gain (released when replaced
// or at the end), and the recovery when the media layer's audio processor fails.
import { serializeError } from './errors.js';
import type { BoostedMicrophone, CallTransport, WebCallEnvironment, WebCallError } from './types.js';

/** What the microphone needs from the session that owns it. */
export interface MicrophoneHost {
  env: WebCallEnvironment;
  /** Whether the session is closed. */
  closed(): boolean;
  transport(): CallTransport | null;
  emitError(error: Omit<WebCallError, 'timestamp' | 'fatal'>): void;
}

/** The local microphone's state for one call. */
export class Microphone {
  private userMuted = false;
  private boost: BoostedMicrophone | null = null;

  constructor(private readonly host: MicrophoneHost) {}

  /** Mutes or unmutes on the transport and remembers what the user asked for. */
  setMuted(transport: CallTransport, muted: boolean): void {
    transport.setLocalAudio(!muted);
    this.userMuted = muted;
  }

  /** Replaces the microphone with a boosted copy; the previous boost is released. */
  async boostBy(gain: number): Promise<void> {
    const boost = await this.host.env.boostMicrophone(gain);
    const transport = this.host.transport();
    if (this.host.closed() || !transport) return boost.release();
    try {
      await transport.setInputDevices({ audioSource: boost.track });
    } catch (error) {
      boost.release();
      throw error;
    }
    this.boost?.release();
    this.boost = boost;
  }

  /** Turns noise cancellation off after the audio processor failed, and unmutes what it muted. */
  recoverAudioProcessor(): void {
    const transport = this.host.transport();
    if (!transport) return;
    transport
      .setNoiseCancellation(false)
      .then(() => {
        // A user who muted stays muted: only the processor's own mute is undone.
        if (!this.host.closed() && !this.userMuted) transport.setLocalAudio(true);
      })
      .catch((error: unknown) => this.host.emitError({ type: 'audio-processor-recovery-error', stage: 'audio-processor-recovery', error: serializeError(error) }));
  }

  /** Releases the boosted copy, if any. */
  release(): void {
    this.boost?.release();
    this.boost = null;
  }
}
