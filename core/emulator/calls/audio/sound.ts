// The emulator's sound: voice-agent-audio loaded when the first call needs it (never at start, so
// `voice dev` starts as fast with it installed as without), each phone call given its audio loop
// (or a note saying why it has none and how to give it one), and an ended call's recordings made
// from its kept timeline.
import type { Rec, Store } from '../../store/store.js';
import type { Scenario } from '../scenario.js';
import type { CallSession } from '../session.js';
import { CallAudio, TIMELINES } from './engine.js';
import { CallHooks } from './hooks.js';
import { forgetMicrophone, microphoneOf } from './microphone.js';
import { hasCustomTranscriber } from './custom-transcriber.js';
import { hasCustomVoice } from './custom-voice.js';
import { AUDIO_OFF, loadAudio } from './port.js';
import type { RecordingKind } from './render.js';
import { recordingBytes, renderChannels } from './render.js';
import type { CallChannels } from './render.js';
import type { TimelineData } from './timeline.js';
import { Voices } from './voices.js';

/** Calls whose channels are kept after being made, for the other kinds of recording asked for next. */
const KEPT_RECORDINGS = 4;

/**
 * The one synthesis cache of the process, by voice and text: every emulator in it (a test file
 * starts many) shares it, so a line is synthesized once however many calls say it.
 */
let shared: Promise<Voices | undefined> | undefined;

/** Notes, on a call without sound, that the assistant's own voice or transcriber is not called (they need the call's audio). */
export function noteStackWithoutAudio(s: CallSession): void {
  if (s.audio || !s.audioOff) return;
  const yours = [hasCustomVoice(s.assistant) && 'custom voice', hasCustomTranscriber(s.assistant) && 'custom transcriber'].filter(Boolean);
  if (yours.length) s.log(`Your ${yours.join(' and ')} ${yours.length > 1 ? 'are' : 'is'} not called: ${yours.length > 1 ? 'they need' : 'it needs'} the call's audio`, 'WARN');
}

/** Loads the audio package on first use and gives calls their sound. */
export class CallSound {
  private readonly made = new Map<string, Promise<CallChannels>>();

  /** `on`: give phone calls sound (`voice dev`); false: `--no-audio`; undefined: not asked (the text timeline, without a note). */
  constructor(readonly on: boolean | undefined) {}

  /** The synthesizer and detector, loaded once a process; undefined when the package is not installed. */
  load(): Promise<Voices | undefined> {
    return (shared ??= loadAudio().then((port) => port && new Voices(port)));
  }

  /** Gives a call its audio loop, or notes why it has none (`on`: this call's wish, when it differs from the emulator's). */
  async attach(s: CallSession, scenario: Scenario, on = this.on): Promise<void> {
    if (on === undefined) return;
    // A web call has sound only with a browser that plays streamed audio (web/stream.ts, web/microphone.ts).
    const off = !on ? 'disabled' : s.call.type === 'webCall' && !s.browser?.streams ? 'web' : undefined;
    const voices = off ? undefined : await this.load();
    const reason = off ?? (voices ? undefined : 'missing');
    if (reason || !voices) {
      s.audioOff = reason;
      s.log(`Audio: ${AUDIO_OFF[reason ?? 'missing']}`, 'WARN');
      return;
    }
    s.audio = new CallAudio(s, voices, scenario.noise);
    s.hooks = new CallHooks(s);
    // Made ahead after the assistant's lines, as soon as the call knows its assistant (CallAudio.ahead).
    s.audio.customerLines = scenario.turns.flatMap((t) => (t.say === undefined ? [] : [t.say]));
    s.log(
      `Audio: on. Both sides are synthesized locally (stand-in voices, not your provider's), the voice activity detector listens to the customer, and the timing rules run on the call's audio${scenario.noise ? `; the customer's audio has noise at ${scenario.noise.snrDb} dB SNR` : ''}`,
    );
  }

  /** Drops the kept timeline of a call that left the store. */
  forget(store: Store, callId: string): void {
    store.remove(TIMELINES, callId);
    this.made.delete(callId);
    forgetMicrophone(callId);
  }

  /** The timeline kept with an ended call, when it had sound. */
  timelineOf(store: Store, callId: string): TimelineData | undefined {
    const kept = store.get(TIMELINES, callId);
    return kept ? (kept.timeline as TimelineData) : undefined;
  }

  /** The WAV of one kind of recording of an ended call with sound; undefined when it had none (or the package is gone). */
  async recording(store: Store, call: Rec, kind: RecordingKind): Promise<Buffer | undefined> {
    const data = this.timelineOf(store, call.id);
    const voices = data && (await this.load());
    if (!data || !voices) return undefined;
    const seconds = (Date.parse(String(call.endedAt)) - Date.parse(String(call.startedAt))) / 1000;
    let channels = this.made.get(call.id);
    if (!channels) {
      channels = renderChannels(data, voices, Number.isFinite(seconds) ? seconds : data.seconds).then((c) => withMicrophone(c, call.id));
      this.made.set(call.id, channels);
      channels.catch(() => this.made.delete(call.id));
      for (const id of this.made.keys()) if (this.made.size > KEPT_RECORDINGS) this.made.delete(id);
    }
    return recordingBytes(await channels, kind, voices);
  }
}

/** A web call's channels with the browser's microphone in the customer's (placed where it was heard, cut at the call's end). */
function withMicrophone(channels: CallChannels, callId: string): CallChannels {
  const mic = microphoneOf(callId);
  if (!mic || mic.sampleRate !== channels.sampleRate) return channels;
  const into = channels.customer;
  const from = Math.max(0, Math.round(mic.at * channels.sampleRate));
  const n = Math.max(0, Math.min(mic.samples.length, into.length - from));
  into.set(mic.samples.subarray(0, n), from);
  return channels;
}
