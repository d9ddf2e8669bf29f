// The assistant's side of a call as the app hears it: the audio players, the `volume-level`
// readings and speech detection over them, and the `audio` / `video` tracks it receives.
import type { Emitter } from './emitter.js';
import { serializeError } from './errors.js';
import { AudioPlayers } from './players.js';
import { LevelObserver, SpeechDetector, volumeLevel } from './speech.js';
import type { CallTransport, Clock, WebCallEnvironment, WebCallError, WebCallEvents } from './types.js';

/** Name of the participant whose audio and video are played. */
export const SPEAKER = 'Vapi Speaker';

/** What the remote media needs from the session that owns it. */
export interface RemoteMediaHost {
  events: Emitter<WebCallEvents>;
  clock: Clock;
  env: WebCallEnvironment;
  volume(): number | null;
  transport(): CallTransport | null;
  send(data: string): void;
  emitError(error: Omit<WebCallError, 'timestamp' | 'fatal'>): void;
}

/** The remote participants' audio and video, their levels and the assistant's speech. */
export class RemoteMedia {
  /** The audio elements playing the assistant. */
  readonly players: AudioPlayers;
  private readonly speech: SpeechDetector;
  private readonly levels: LevelObserver;

  constructor(private readonly host: RemoteMediaHost) {
    this.players = new AudioPlayers(host.env, host.volume);
    const emit = host.events.emit.bind(host.events);
    this.speech = new SpeechDetector(
      host.clock,
      () => emit('speech-start'),
      () => emit('speech-end'),
    );
    this.levels = new LevelObserver(
      host.clock,
      () => host.transport()?.remoteAudioLevels() ?? {},
      (levels) => {
        const { sum, volume } = volumeLevel(levels);
        emit('volume-level', volume);
        this.speech.sample(sum);
      },
    );
  }

  /** Starts reading remote audio levels. */
  observeLevels(): void {
    this.levels.start();
  }

  /** Plays the assistant's audio track (or announces its video), then tells the server it can speak. */
  async trackStarted(participant: { sessionId: string; userName: string; local: boolean }, track: MediaStreamTrack): Promise<void> {
    if (participant.local || participant.userName !== SPEAKER) return;
    if (track.kind === 'video') this.host.events.emit('video', track);
    if (track.kind === 'audio') {
      let player: HTMLAudioElement | null;
      try {
        player = await this.players.add(participant.sessionId, track);
      } catch (error) {
        console.error('[webcall] could not start the assistant audio', error);
        this.host.emitError({ type: 'audio-start-failed', error: serializeError(error) });
        return;
      }
      if (!player) return;
      this.host.events.emit('audio', player);
    }
    this.host.send('playable');
  }

  /** Stops the level readings and silences every player at once. */
  close(): void {
    this.levels.stop();
    this.speech.reset();
    // Players still being built are dropped when they finish.
    this.players.close();
  }
}
