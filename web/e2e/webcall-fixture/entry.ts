// Browser entry for the web-call e2e test: exposes runCall() on window, which starts a call with
// the real WebCall (and the real daily-js, loaded with import() when the call starts).
import WebCall from 'voice-agent-core/webcall';
import type { DailyAdvancedConfig, DailyFactoryOptions, WebCallEventName } from 'voice-agent-core/webcall';

/** What the test passes to runCall(). */
export interface RunCallOptions {
  baseUrl: string;
  callConfig?: DailyAdvancedConfig;
  callObjectOptions?: DailyFactoryOptions;
}

/** What runCall() reports back. */
export interface RunCallResult {
  result: unknown;
  state: string;
  states: string[];
  events: Array<{ name: string; payload: unknown }>;
  reports: unknown[];
  media: number;
}

const NAMES: WebCallEventName[] = ['call-start-progress', 'call-start-success', 'call-start-failed', 'error', 'call-start', 'call-end', 'message'];

declare global {
  interface Window {
    runCall(options: RunCallOptions): Promise<RunCallResult>;
    runStrictMode(options: RunCallOptions): Promise<RunCallResult & { first: unknown }>;
  }
}

window.runCall = async ({ baseUrl, callConfig, callObjectOptions }) => {
  const reports: unknown[] = [];
  // The default loader: daily-js comes from its own chunk, fetched only when the call starts.
  const call = new WebCall('public-key', baseUrl, callConfig, callObjectOptions, { reportError: (report) => reports.push(report) });
  const events: RunCallResult['events'] = [];
  const states: string[] = [];
  for (const name of NAMES) call.on(name, ((payload: unknown) => events.push({ name, payload: JSON.parse(JSON.stringify(payload ?? null)) })) as never);
  call.on('state', (state) => states.push(state));
  const result = await call.start({ name: 'E2E assistant', firstMessage: 'Hello from the test' });
  return { result, state: call.state, states, events, reports, media: document.querySelectorAll('audio, video, iframe').length };
};

// React StrictMode's mount → unmount → mount, with the unmount arriving while the first call's
// Daily object is loading: the second start must wait for it to be destroyed (Daily refuses a
// second live call object) and then run on its own.
window.runStrictMode = async ({ baseUrl, callConfig, callObjectOptions }) => {
  const call = new WebCall('public-key', baseUrl, callConfig, callObjectOptions);
  const events: RunCallResult['events'] = [];
  const states: string[] = [];
  for (const name of NAMES) call.on(name, ((payload: unknown) => events.push({ name, payload: JSON.parse(JSON.stringify(payload ?? null)) })) as never);
  call.on('state', (state) => states.push(state));
  const assistant = { name: 'E2E assistant' };
  let second: Promise<unknown> | null = null;
  const remount = (event: { stage: string; status: string }) => {
    if (event.stage !== 'daily-call-join' || event.status !== 'started') return;
    call.off('call-start-progress', remount);
    void call.stop();
    second = call.start(assistant);
  };
  call.on('call-start-progress', remount);
  const first = await call.start(assistant);
  while (!second) await new Promise((resolve) => setTimeout(resolve, 10));
  const result = await second;
  return { first, result, state: call.state, states, events, reports: [], media: document.querySelectorAll('audio, video, iframe').length };
};

/** What startLocal() leaves on window for the test to read while the call runs. */
export interface LocalCallLog {
  events: Array<{ name: string; payload: unknown; at: number }>;
  /** With `analyse`: the level an analyser on the assistant's remote track reads, every 50 ms. */
  track: Array<{ at: number; level: number }>;
  states: string[];
  callId: string | null;
}

const LOCAL_NAMES: WebCallEventName[] = [...NAMES, 'speech-start', 'speech-end', 'volume-level', 'audio'];

declare global {
  interface Window {
    /** Starts a call on the emulator (whose web calls the local transport joins), `assistant` added to its assistant; resolves with the call id. */
    startLocal(options: { baseUrl: string; testTone?: boolean; analyse?: boolean; assistant?: Record<string, unknown> }): Promise<string | null>;
    /** With `testTone`: the microphone plays a tone for `ms`, as a customer talking. */
    customerTalk(ms: number): void;
    localCall: WebCall;
    localLog: LocalCallLog;
  }
}

/** Reads the level of the track an audio element plays through an analyser of its own, every 50 ms, into `into`. */
function analyseTrack(player: HTMLAudioElement, into: LocalCallLog['track']): void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(player.srcObject as MediaStream).connect(analyser);
  const buffer = new Float32Array(analyser.fftSize);
  setInterval(() => {
    analyser.getFloatTimeDomainData(buffer);
    let sum = 0;
    for (const v of buffer) sum += v * v;
    into.push({ at: performance.now(), level: Math.sqrt(sum / buffer.length) });
  }, 50);
}

window.startLocal = async ({ baseUrl, testTone, analyse, assistant }) => {
  let audioSource: MediaStreamTrack | undefined;
  if (testTone) {
    // A microphone the test controls: silent until customerTalk() opens it for a while.
    const context = new AudioContext();
    const tone = context.createOscillator();
    const gate = context.createGain();
    gate.gain.value = 0;
    const out = context.createMediaStreamDestination();
    tone.connect(gate).connect(out);
    tone.start();
    audioSource = out.stream.getAudioTracks()[0];
    window.customerTalk = (ms) => {
      gate.gain.setValueAtTime(0.5, context.currentTime);
      gate.gain.setValueAtTime(0, context.currentTime + ms / 1000);
    };
  }
  const call = new WebCall('public-key', baseUrl, undefined, audioSource ? { audioSource } : undefined);
  const log: LocalCallLog = { events: [], track: [], states: [], callId: null };
  if (analyse) call.on('audio', (player) => analyseTrack(player, log.track));
  window.localCall = call;
  window.localLog = log;
  for (const name of LOCAL_NAMES) {
    // Elements are not serialisable: the audio event records that an element plays the assistant.
    call.on(name, ((payload: unknown) => log.events.push({ name, payload: name === 'audio' ? 'element' : JSON.parse(JSON.stringify(payload ?? null)), at: performance.now() })) as never);
  }
  call.on('state', (state) => log.states.push(state));
  const created = await call.start({ name: 'E2E assistant', firstMessage: 'Hello from the test', ...assistant });
  log.callId = created?.id ?? null;
  return log.callId;
};
