// Default clock and browser environment. Both read globals when called, not when loaded, so
// the module imports cleanly anywhere and fake timers installed later still apply.
import type { BoostedMicrophone, Clock, WebCallEnvironment } from './types.js';
import { VoiceError } from '../errors.js';

/** The real clock (Date.now and the global timers). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

/** Phones and tablets, including iPadOS, which reports itself as a Mac with a touch screen. */
export function isMobileDevice(env: Pick<WebCallEnvironment, 'userAgent' | 'maxTouchPoints'>): boolean {
  const agent = env.userAgent();
  if (/android|iphone|ipad|ipod|iemobile|blackberry|bada/i.test(agent)) return true;
  return /macintosh/i.test(agent) && env.maxTouchPoints() > 1;
}

/** The browser's navigator, document and Web Audio. */
export const browserEnvironment: WebCallEnvironment = {
  userAgent: () => (typeof navigator === 'undefined' ? '' : navigator.userAgent),
  maxTouchPoints: () => (typeof navigator === 'undefined' ? 0 : navigator.maxTouchPoints || 0),
  async requestMicrophone() {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
  },
  async createAudioPlayer(track, participantId, volume) {
    const player = document.createElement('audio');
    player.dataset.participantId = participantId;
    // Set before play() so an already-flowing track never plays at full volume first.
    if (volume !== null) player.volume = volume;
    player.autoplay = true;
    document.body.appendChild(player);
    try {
      player.srcObject = new MediaStream([track]);
      await player.play();
    } catch (error) {
      browserEnvironment.removeAudioPlayer(player);
      throw error;
    }
    return player;
  },
  removeAudioPlayer(player) {
    player.pause();
    player.srcObject = null;
    player.remove();
  },
  async boostMicrophone(gain): Promise<BoostedMicrophone> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const context = new AudioContext();
    const release = () => {
      for (const track of stream.getTracks()) track.stop();
      void context.close().catch(() => {});
    };
    try {
      const gainNode = context.createGain();
      gainNode.gain.value = gain;
      context.createMediaStreamSource(stream).connect(gainNode);
      const destination = context.createMediaStreamDestination();
      gainNode.connect(destination);
      const [track] = destination.stream.getAudioTracks();
      if (!track) throw new VoiceError('No boosted microphone track.');
      return { track, release: () => (track.stop(), release()) };
    } catch (error) {
      release();
      throw error;
    }
  },
};
