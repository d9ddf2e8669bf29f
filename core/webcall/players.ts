// The audio elements playing remote participants (in practice the assistant): at most one per
// participant, built asynchronously, and never left attached once the call or participant is gone.
import type { WebCallEnvironment } from './types.js';

/** Audio players keyed by participant. */
export class AudioPlayers {
  /** The element most recently attached, or null. */
  current: HTMLAudioElement | null = null;
  private readonly players = new Map<string, HTMLAudioElement>();
  private readonly builds = new Map<string, number>();
  private seq = 0;
  private closed = false;

  constructor(
    private readonly env: WebCallEnvironment,
    private readonly volume: () => number | null,
  ) {}

  /** Builds and attaches a player; resolves with it, or null when it was superseded meanwhile. Rejects when playback cannot start. */
  async add(id: string, track: MediaStreamTrack): Promise<HTMLAudioElement | null> {
    const build = ++this.seq;
    this.builds.set(id, build);
    let player: HTMLAudioElement;
    try {
      player = await this.env.createAudioPlayer(track, id, this.volume());
    } catch (error) {
      if (this.builds.get(id) === build) this.builds.delete(id);
      throw error;
    }
    // The call can end, or the participant leave or renegotiate, while play() is pending.
    if (this.closed || this.builds.get(id) !== build) {
      this.env.removeAudioPlayer(player);
      return null;
    }
    this.builds.delete(id);
    this.remove(id);
    this.players.set(id, player);
    this.current = player;
    const volume = this.volume();
    if (volume !== null) player.volume = volume;
    return player;
  }

  /** Detaches the participant's player and cancels one being built. */
  remove(id: string): void {
    this.builds.delete(id);
    const player = this.players.get(id);
    if (!player) return;
    this.players.delete(id);
    if (this.current === player) this.current = null;
    this.env.removeAudioPlayer(player);
  }

  /** Applies a volume to the current player. */
  setVolume(volume: number): void {
    if (this.current) this.current.volume = volume;
  }

  /** Detaches every player; players still being built are dropped when they finish. */
  close(): void {
    this.closed = true;
    this.builds.clear();
    for (const id of [...this.players.keys()]) this.remove(id);
  }
}
