// Cassettes: model exchanges recorded to a JSON file (a stable hash of the request body -> the
// streamed answer) and replayed without any model. Only the body is kept: headers, and so keys and
// authorisation, are never written.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic.js';
import type { Json } from '../messages/index.js';
import type { ModelToolCall } from './types.js';
import { VoiceError } from '../errors.js';

/** One recorded answer. */
export interface Answer {
  answer: { deltas: string[]; toolCalls: ModelToolCall[] };
  firstTokenMs: number;
  totalMs: number;
}

/** One recorded exchange: a request and its answer. */
export interface Exchange extends Answer {
  label?: string;
  /** The request body without its volatile fields (what the hash covers). */
  request: Json;
  /**
   * Later answers to the same request, in the order they came: a simulation run three times asks
   * the same first question three times, and a model that answered differently keeps each answer.
   */
  repeats?: Answer[];
}

interface CassetteFile {
  cassette: 1;
  exchanges: Record<string, Exchange>;
}

// The call and phone-number objects carry ids and times that differ from run to run.
const VOLATILE = ['call', 'phoneNumber'];

/** The request body as a cassette keys it. */
export function stableBody(body: Json): Json {
  const out: Json = { ...body };
  for (const key of VOLATILE) delete out[key];
  return out;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Json)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A stable hash of a request body (key order and volatile fields do not matter). */
export function requestHash(body: Json): string {
  return createHash('sha256')
    .update(canonical(stableBody(body)))
    .digest('hex')
    .slice(0, 32);
}

/** Where a request first differs from a recorded one, in words. */
function firstDifference(a: Json, b: Json): string {
  const am = Array.isArray(a.messages) ? a.messages : [];
  const bm = Array.isArray(b.messages) ? b.messages : [];
  for (let i = 0; i < Math.max(am.length, bm.length); i++) {
    if (canonical(am[i]) !== canonical(bm[i])) {
      const role = (am[i] as Json | undefined)?.role ?? (bm[i] as Json | undefined)?.role;
      return `messages[${i}]${role ? ` (${String(role)})` : ''}`;
    }
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'messages').sort();
  const key = keys.find((k) => canonical(a[k]) !== canonical(b[k]));
  return key ?? 'nothing visible';
}

/** The recording most like this request: the same turn label, else the longest shared conversation prefix. */
function nearestRecording(body: Json, recorded: Exchange[], label: string | undefined): Exchange | undefined {
  const same = recorded.find((e) => label !== undefined && e.label === label);
  if (same) return same;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let best: Exchange | undefined;
  let bestShared = -1;
  for (const e of recorded) {
    const theirs = Array.isArray(e.request.messages) ? e.request.messages : [];
    let shared = 0;
    while (shared < messages.length && shared < theirs.length && canonical(messages[shared]) === canonical(theirs[shared])) shared++;
    if (shared > bestShared) [best, bestShared] = [e, shared];
  }
  return best;
}

/** Writes exchanges as they happen; each write replaces the file atomically. */
export class CassetteRecorder {
  private readonly exchanges: Record<string, Exchange> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Adds an exchange and writes the file; resolves once it is on disk. */
  add(body: Json, exchange: Omit<Exchange, 'request' | 'repeats'>): Promise<void> {
    const key = requestHash(body);
    const had = this.exchanges[key];
    if (had) (had.repeats ??= []).push({ answer: exchange.answer, firstTokenMs: exchange.firstTokenMs, totalMs: exchange.totalMs });
    else this.exchanges[key] = { ...exchange, request: stableBody(body) };
    const text = `${JSON.stringify({ cassette: 1, exchanges: this.exchanges } satisfies CassetteFile, null, 2)}\n`;
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.file, text));
    return this.writing;
  }
}

/** What is wrong with a cassette file's text, or undefined when it is one (the one check the player and `voice dev` share). */
export function cassetteProblem(text: string): string | undefined {
  let json: Partial<CassetteFile>;
  try {
    json = JSON.parse(text) as Partial<CassetteFile>;
  } catch {
    return 'is not JSON, so not a model cassette';
  }
  if (json === null || typeof json !== 'object' || json.cassette !== 1 || !json.exchanges || typeof json.exchanges !== 'object') return 'is not a model cassette';
  return undefined;
}

/** Answers from a recorded file. */
export class CassettePlayer {
  private loaded?: Promise<Record<string, Exchange>>;
  /** How often each request was answered so far: a repeated request gets the answers in the order recorded, then round again. */
  private readonly served = new Map<string, number>();

  constructor(readonly file: string) {}

  private load(): Promise<Record<string, Exchange>> {
    this.loaded ??= readFile(this.file, 'utf8').then(
      (text) => {
        const problem = cassetteProblem(text);
        if (problem) throw new VoiceError(`${this.file} ${problem}`);
        return (JSON.parse(text) as CassetteFile).exchanges;
      },
      (err: NodeJS.ErrnoException) => {
        throw new VoiceError(`the cassette ${this.file} cannot be read (${err.code ?? err.message})`);
      },
    );
    return this.loaded;
  }

  /** The recorded exchange for this body, or a message naming the turn, the file and what changed. */
  async find(body: Json, label: string | undefined): Promise<Exchange | { miss: string }> {
    let exchanges: Record<string, Exchange>;
    try {
      exchanges = await this.load();
    } catch (err) {
      return { miss: (err as Error).message };
    }
    const key = requestHash(body);
    const hit = exchanges[key];
    if (hit) {
      const n = this.served.get(key) ?? 0;
      this.served.set(key, n + 1);
      const answers: Answer[] = [hit, ...(Array.isArray(hit.repeats) ? hit.repeats : [])];
      const { answer, firstTokenMs, totalMs } = answers[n % answers.length] as Answer;
      return { ...hit, answer, firstTokenMs, totalMs };
    }
    const turn = label ?? 'a model request';
    const nearest = nearestRecording(stableBody(body), Object.values(exchanges), label);
    // Replayed under another model name than it was recorded with: every request misses for that one reason.
    const recorded = nearest?.request.model;
    if (typeof recorded === 'string' && canonical(body.model) !== canonical(recorded)) {
      return {
        miss: `${turn}: no recorded answer in the cassette ${this.file}: the request names the model ${JSON.stringify(body.model ?? null)}, the recording ${JSON.stringify(recorded)}; replay with --llm-model ${recorded} (the name it was recorded with), or record again with --llm-record`,
      };
    }
    const where = nearest ? `; it differs from the nearest recording${nearest.label ? ` (${nearest.label})` : ''} at ${firstDifference(stableBody(body), nearest.request)}` : '';
    return {
      miss: `${turn}: no recorded answer in the cassette ${this.file} (the prompt, tools or conversation changed since it was recorded${where}); record it again with --llm-record`,
    };
  }
}
