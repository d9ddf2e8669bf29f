// The in-call controls of a WebCall (messages, microphone, volume, devices, level observers,
// screen share, recording): each acts on the current session, with the platform SDK's names.
import type { DailyCall } from './daily-types.js';
import { Emitter } from './emitter.js';
import { NO_CALL } from './errors.js';
import type { Session } from './session.js';
import { RECORDING } from './start.js';
import type { ClientMessage, WebCallEvents } from './types.js';
import { VoiceError } from '../errors.js';

/** The controls a WebCall offers during a call; WebCall adds the call's lifecycle. */
export class CallControls extends Emitter<WebCallEvents> {
  /** The session of the call in progress, if any. */
  protected current: Session | null = null;
  /** The playback volume asked for, kept across calls. */
  protected desiredVolume: number | null = null;

  /** Sends a Live Call Control message (no-op without a call). */
  send(message: ClientMessage): void {
    this.current?.send(JSON.stringify(message));
  }

  /** Makes the assistant say a message. */
  say(message: string, endCallAfterSpoken?: boolean, interruptionsEnabled?: boolean, interruptAssistantEnabled?: boolean): void {
    this.send({ type: 'say', message, endCallAfterSpoken, interruptionsEnabled: interruptionsEnabled ?? false, interruptAssistantEnabled: interruptAssistantEnabled ?? false });
  }

  /** Mutes or unmutes the microphone; throws 'Call object is not available.' without a call. */
  setMuted(mute: boolean): void {
    this.requireSession().setMuted(mute);
  }

  /** Whether the microphone is muted (false without a call). */
  isMuted(): boolean {
    const transport = this.current?.transport;
    return transport ? !transport.localAudio() : false;
  }

  /** Sets the assistant's playback volume, 0 to 1, remembered across calls. */
  setVolume(volume: number): void {
    if (!Number.isFinite(volume)) return;
    this.desiredVolume = Math.min(1, Math.max(0, volume));
    this.current?.setVolume(this.desiredVolume);
  }

  /** The audio element playing the assistant, or null. */
  getAudioPlayer(): HTMLAudioElement | null {
    return this.current?.media.players.current ?? null;
  }

  /** Sends the microphone through a gain; needs a call. */
  async increaseMicLevel(gain: number): Promise<void> {
    const session = this.requireSession();
    try {
      await session.microphone.boostBy(gain);
    } catch (error) {
      console.error('[webcall] could not adjust the microphone level:', error);
    }
  }

  /** Changes input devices; needs a call. `audioSource: false` is ignored (it breaks Chrome 140+). */
  async setInputDevicesAsync(options: Parameters<DailyCall['setInputDevicesAsync']>[0]): Promise<void> {
    const transport = this.requireSession().transportOrThrow();
    const { audioSource, ...rest } = options;
    if (audioSource === false) console.warn('[webcall] setInputDevicesAsync with audioSource:false ignored (breaks Chrome 140+).');
    await transport.setInputDevices(audioSource === false ? rest : options);
  }

  /** Changes the audio output device (no-op without a call). */
  async setOutputDeviceAsync(options: Parameters<DailyCall['setOutputDeviceAsync']>[0]): Promise<void> {
    await this.current?.transport?.setOutputDevice(options);
  }

  /** The Daily call object for anything else (its own validations apply), or null. */
  getDailyCallObject(): DailyCall | null {
    return (this.current?.transport?.raw() as DailyCall | undefined) ?? null;
  }

  /** The latest microphone level, 0 to 1 (0 without a call). */
  getLocalAudioLevel(): number {
    return this.current?.transport?.localAudioLevel() ?? 0;
  }

  /** Starts emitting `local-volume-level`; needs a call. */
  async startLocalAudioLevelObserver(interval?: number): Promise<void> {
    await this.requireSession().transportOrThrow().startLocalAudioLevelObserver(interval);
  }

  /** Stops `local-volume-level`. */
  stopLocalAudioLevelObserver(): void {
    this.current?.transport?.stopLocalAudioLevelObserver();
  }

  /** Whether `local-volume-level` is being emitted. */
  isLocalAudioLevelObserverRunning(): boolean {
    return this.current?.transport?.isLocalAudioLevelObserverRunning() ?? false;
  }

  /** Shares the screen. */
  startScreenSharing(displayMediaOptions?: DisplayMediaStreamOptions, screenVideoSendSettings?: unknown): void {
    this.current?.transport?.startScreenShare({ displayMediaOptions, screenVideoSendSettings });
  }

  /** Stops sharing the screen. */
  stopScreenSharing(): void {
    this.current?.transport?.stopScreenShare();
  }

  /** Starts (or retries) the cloud recording: 1280x720, fixed background, default layout. */
  startRecording(): void {
    this.requireSession().transportOrThrow().startRecording(RECORDING);
  }

  /** Stops the cloud recording. */
  stopRecording(): void {
    this.current?.transport?.stopRecording();
  }

  /** The current session once its transport exists; throws the platform SDK's message otherwise. */
  protected requireSession(): Session {
    if (!this.current?.transport) throw new VoiceError(NO_CALL);
    return this.current;
  }
}
