// The audio of a local (emulator) call: the assistant's voice as a MediaStream track the session
// plays like Daily's (the emulator's streamed audio when the call has sound, else the browser's
// speech synthesis), with its level read from what is played, and the microphone's level.
// Part of the local transport's lazy chunk.
import { VoiceError } from '../errors.js';

/** Root-mean-square level of what an analyser hears, 0 to 1. */
function rms(analyser: AnalyserNode, buffer: Float32Array<ArrayBuffer>): number {
  analyser.getFloatTimeDomainData(buffer);
  let sum = 0;
  for (const sample of buffer) sum += sample * sample;
  return Math.sqrt(sum / buffer.length);
}

/** A local voice of the browser's speech synthesis (never a network voice: calls stay offline). */
function localVoice(): SpeechSynthesisVoice | undefined {
  const synth = globalThis.speechSynthesis;
  if (!synth) return undefined;
  const voices = synth.getVoices().filter((voice) => voice.localService);
  return voices.find((voice) => /^en/i.test(voice.lang)) ?? voices[0];
}

/** Level reported while speech synthesis talks: it plays outside Web Audio, so it cannot be measured. */
const SYNTHESIS_LEVEL = 0.08;

/**
 * The assistant's voice. Lines are spoken by the browser's speech synthesis when it has a local
 * voice, else played as a synthesised murmur of the line's length into the track the session
 * plays (so the level observer measures what is heard).
 */
export class AssistantVoice {
  readonly track: MediaStreamTrack;
  private readonly analyser: AnalyserNode;
  private readonly output: GainNode;
  private readonly buffer: Float32Array<ArrayBuffer>;
  private nodes: AudioScheduledSourceNode[] = [];
  private utterance: SpeechSynthesisUtterance | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finish: (() => void) | null = null;
  /** When the streamed audio queued so far ends (AudioContext time). */
  private next = 0;

  constructor(
    private readonly context: AudioContext,
    private readonly useSynthesis: boolean,
  ) {
    this.output = context.createGain();
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 1024;
    this.buffer = new Float32Array(this.analyser.fftSize);
    const destination = context.createMediaStreamDestination();
    this.output.connect(this.analyser);
    this.analyser.connect(destination);
    const [track] = destination.stream.getAudioTracks();
    if (!track) throw new VoiceError('No audio track for the assistant.');
    this.track = track;
    // Browsers load their voice list lazily: ask now so it is there for the first line.
    if (useSynthesis) globalThis.speechSynthesis?.getVoices();
  }

  /** The level of what is playing, 0 to 1. */
  level(): number {
    return this.utterance ? SYNTHESIS_LEVEL : rms(this.analyser, this.buffer);
  }

  /** Says a line; `done` runs when it has been played (not when it is silenced). */
  speak(text: string, durationMs: number, done: () => void): void {
    this.silence();
    void this.context.resume().catch(() => undefined);
    this.finish = done;
    const voice = this.useSynthesis ? localVoice() : undefined;
    if (voice) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.onend = utterance.onerror = () => this.ended(utterance);
      this.utterance = utterance;
      speechSynthesis.speak(utterance);
      return;
    }
    this.murmur(Math.max(300, durationMs));
    this.timer = setTimeout(() => this.ended(null), durationMs + 150);
  }

  /** Plays a piece of streamed audio (16-bit mono) right after the pieces before it. */
  play(samples: Int16Array, sampleRate: number): void {
    if (!samples.length) return;
    const ctx = this.context;
    void ctx.resume().catch(() => undefined);
    const buffer = ctx.createBuffer(1, samples.length, sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) data[i] = (samples[i] as number) / 32768;
    const node = ctx.createBufferSource();
    node.buffer = buffer;
    node.connect(this.output);
    const at = Math.max(ctx.currentTime + 0.05, this.next);
    node.start(at);
    this.next = at + buffer.duration;
    this.nodes.push(node);
    node.onended = () => {
      this.nodes = this.nodes.filter((n) => n !== node);
    };
  }

  /** Stops the line being said, if any. */
  silence(): void {
    clearTimeout(this.timer);
    this.next = 0;
    this.finish = null;
    if (this.utterance) {
      this.utterance = null;
      speechSynthesis.cancel();
    }
    for (const node of this.nodes.splice(0)) {
      try {
        node.stop();
      } catch {
        // Already stopped.
      }
    }
  }

  /** Releases the audio graph. */
  close(): void {
    this.silence();
    this.track.stop();
  }

  private ended(utterance: SpeechSynthesisUtterance | null): void {
    if (utterance && utterance !== this.utterance) return;
    this.utterance = null;
    const finish = this.finish;
    this.finish = null;
    finish?.();
  }

  /** A voice-like sound: a buzz through a low-pass filter, in syllables of about 180 ms. */
  private murmur(durationMs: number): void {
    const ctx = this.context;
    const start = ctx.currentTime + 0.02;
    const seconds = durationMs / 1000;
    const source = ctx.createOscillator();
    source.type = 'sawtooth';
    const filter = ctx.createBiquadFilter();
    filter.type = 'lowpass';
    filter.frequency.value = 900;
    const envelope = ctx.createGain();
    envelope.gain.setValueAtTime(0, start);
    const syllable = 0.18;
    for (let t = 0, i = 0; t + syllable <= seconds; t += syllable, i++) {
      source.frequency.setValueAtTime(115 + 25 * Math.sin(i * 1.7), start + t);
      envelope.gain.setValueAtTime(0.05, start + t);
      envelope.gain.linearRampToValueAtTime(0.6, start + t + 0.04);
      envelope.gain.linearRampToValueAtTime(0.12, start + t + syllable);
    }
    envelope.gain.linearRampToValueAtTime(0, start + seconds);
    source.connect(filter).connect(envelope).connect(this.output);
    source.start(start);
    source.stop(start + seconds + 0.05);
    this.nodes.push(source);
  }
}

/** The microphone's level, read through an analyser (muting disables the track, so it reads 0). */
export class MicrophoneLevel {
  private readonly analyser: AnalyserNode;
  private readonly buffer: Float32Array<ArrayBuffer>;
  private source: MediaStreamAudioSourceNode | null = null;

  constructor(
    private readonly context: AudioContext,
    public stream: MediaStream,
  ) {
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 1024;
    this.buffer = new Float32Array(this.analyser.fftSize);
    this.use(stream);
  }

  /** Listens to another stream from now on. */
  use(stream: MediaStream): void {
    this.source?.disconnect();
    this.stream = stream;
    this.source = this.context.createMediaStreamSource(stream);
    this.source.connect(this.analyser);
  }

  /** Whether the microphone sends sound. */
  get enabled(): boolean {
    return this.stream.getAudioTracks().some((track) => track.enabled);
  }

  set enabled(on: boolean) {
    for (const track of this.stream.getAudioTracks()) track.enabled = on;
  }

  /** The microphone's level, 0 to 1 (0 while muted). */
  level(): number {
    return this.enabled ? rms(this.analyser, this.buffer) : 0;
  }

  /** The node carrying the microphone's audio (silent while muted). */
  get node(): AudioNode {
    return this.analyser;
  }

  /** Stops the microphone. */
  close(): void {
    this.source?.disconnect();
    for (const track of this.stream.getTracks()) track.stop();
  }
}
