// How a tester persona talks in voice-mode simulations on the local platform: the fields a
// scenario's customer lines have in the audio loop (talk over the assistant at a second or after N
// of its words, a pause before a line, keys after it, noise around the caller), written in the
// personality's assistant as `metadata.voiceMode` (the platform keeps assistant metadata as it is,
// so the block survives `voice apply` anywhere; only the local platform reads it). Checked here
// once, for `voice test --lint` and for the run.
import type { Json } from '../messages/index.js';
import { isObject } from '../json.js';

/** The transport whose simulations run on the audio loop (the platform's voice mode). */
export const VOICE_TRANSPORT = 'vapi.websocket';

/** The transports a simulation run may name. */
export const TRANSPORTS = ['vapi.webchat', VOICE_TRANSPORT] as const;

/** When the tester starts talking over the assistant's line. */
export type Over = { afterSeconds: number } | { afterWords: number };

/** How the tester says one line. */
export interface VoiceTurn {
  interrupt?: Over;
  pauseSeconds?: number;
  dtmf?: string;
}

/** A persona's voice mode: defaults for every line, the lines' own (in order), and noise. */
export interface VoiceMode {
  defaults: VoiceTurn;
  turns: VoiceTurn[];
  noise?: { snrDb: number; seed: number; color?: 'white' | 'pink' };
}

/** A problem with its path under `assistant.metadata.voiceMode`. */
export interface VoiceModeProblem {
  path: (string | number)[];
  message: string;
}

const TURN_KEYS = ['interrupt', 'pauseSeconds', 'dtmf'];
const KEYS = [...TURN_KEYS, 'noise', 'turns'];
const DTMF = /^[0-9*#A-D]+$/;

/** Where the block sits in a personality. */
export const VOICE_MODE_PATH = ['assistant', 'metadata', 'voiceMode'] as const;

function turnOf(raw: Json, at: (string | number)[], problems: VoiceModeProblem[]): VoiceTurn {
  const turn: VoiceTurn = {};
  const bad = (key: string, message: string): void =>
    void problems.push({ path: [...at, key], message: `voiceMode${at.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}.${key} ${message}` });
  const i = raw.interrupt;
  // false: this line does not talk over the assistant, whatever the defaults say.
  if (i === false) turn.interrupt = undefined;
  else if (i === true) turn.interrupt = { afterSeconds: 1 };
  else if (isObject(i) && Object.keys(i).length === 1 && typeof i.afterSeconds === 'number' && Number.isFinite(i.afterSeconds) && i.afterSeconds >= 0)
    turn.interrupt = { afterSeconds: i.afterSeconds };
  else if (isObject(i) && Object.keys(i).length === 1 && Number.isInteger(i.afterWords) && (i.afterWords as number) >= 1) turn.interrupt = { afterWords: i.afterWords as number };
  else if (i !== undefined)
    bad('interrupt', "must be true (a second in), { afterSeconds: 1.5 } (seconds into the assistant's line, 0 or more) or { afterWords: 3 } (after that many of its words, 1 or more)");
  const p = raw.pauseSeconds;
  if (typeof p === 'number' && Number.isFinite(p) && p >= 0 && p <= 600) turn.pauseSeconds = p;
  else if (p !== undefined) bad('pauseSeconds', 'must be a number of seconds from 0 to 600');
  const d = raw.dtmf;
  if (typeof d === 'string' && DTMF.test(d)) turn.dtmf = d;
  else if (d !== undefined) bad('dtmf', 'must be keypad keys: digits 0-9, * and # (A-D too), like "1234#"');
  return turn;
}

function noiseOf(raw: unknown, problems: VoiceModeProblem[]): VoiceMode['noise'] {
  const bad = (key: string, message: string): undefined => void problems.push({ path: ['noise', key], message: `voiceMode.noise${key ? `.${key}` : ''} ${message}` });
  if (!isObject(raw)) return bad('', 'must be a mapping like { snrDb: 5, seed: 1 } (color: white or pink)');
  for (const k of Object.keys(raw)) if (!['snrDb', 'seed', 'color'].includes(k)) bad(k, 'is not known (one of: snrDb, seed, color)');
  const { snrDb, seed, color } = raw;
  if (typeof snrDb !== 'number' || !Number.isFinite(snrDb) || snrDb < -10 || snrDb > 60) return bad('snrDb', 'must be a number of decibels from -10 to 60 (the speech over the noise)');
  if (seed !== undefined && !Number.isInteger(seed)) return bad('seed', 'must be a whole number (the same seed gives the same noise)');
  if (color !== undefined && color !== 'white' && color !== 'pink') return bad('color', 'must be white or pink');
  return { snrDb, seed: typeof seed === 'number' ? seed : 1, ...(color ? { color } : {}) };
}

/** A personality's voice mode, with its problems; undefined when it has none. */
export function voiceModeOf(personality: Json | undefined): { mode: VoiceMode; problems: VoiceModeProblem[] } | undefined {
  const raw = ((personality?.assistant as Json | undefined)?.metadata as Json | undefined)?.voiceMode;
  if (raw === undefined) return undefined;
  const problems: VoiceModeProblem[] = [];
  const mode: VoiceMode = { defaults: {}, turns: [] };
  if (!isObject(raw)) {
    problems.push({ path: [], message: `voiceMode must be a mapping of ${KEYS.join(', ')}` });
    return { mode, problems };
  }
  for (const k of Object.keys(raw)) if (!KEYS.includes(k)) problems.push({ path: [k], message: `voiceMode.${k} is not known (one of: ${KEYS.join(', ')})` });
  mode.defaults = turnOf(raw, [], problems);
  if (raw.turns !== undefined) {
    if (!Array.isArray(raw.turns)) problems.push({ path: ['turns'], message: 'voiceMode.turns must be a list, one entry per line of the tester (interrupt, pauseSeconds, dtmf)' });
    else
      raw.turns.forEach((t: unknown, i) => {
        if (!isObject(t)) return void problems.push({ path: ['turns', i], message: `voiceMode.turns[${i}] must be a mapping of ${TURN_KEYS.join(', ')}` });
        for (const k of Object.keys(t)) if (!TURN_KEYS.includes(k)) problems.push({ path: ['turns', i, k], message: `voiceMode.turns[${i}].${k} is not known (one of: ${TURN_KEYS.join(', ')})` });
        mode.turns.push(turnOf(t, ['turns', i], problems));
      });
  }
  const noise = raw.noise === undefined ? undefined : noiseOf(raw.noise, problems);
  if (noise) mode.noise = noise;
  return { mode, problems };
}

/** How the tester says its line `n` (0-based): the line's own fields over the defaults. */
export function voiceTurn(mode: VoiceMode | undefined, n: number): VoiceTurn {
  return { ...mode?.defaults, ...mode?.turns[n] };
}
