// `voice load --export artillery`: the same traffic as an Artillery script, for a team that runs
// it from many machines. One call of each kind is recorded (./record.ts) and written as one flow
// per kind (inbound, outbound), with arrivals on the run's schedule and a call list saying which
// call is which kind (Artillery would pick scenarios at random by weight: right only on average).
import { randomUUID } from 'node:crypto';
import { stringify } from 'yaml';
import type { Json } from '../messages/index.js';
import { startTimes } from './engine.js';
import { recordCalls } from './record.js';
import type { KeptMessage } from './record.js';
import { LoadOptionsError } from './errors.js';
import type { LoadOptions } from './types.js';

/** The written script, the call list it reads, and what they hold. */
export interface ArtilleryExport {
  text: string;
  /** The call list (CSV) the script reads, one row a call in schedule order: its id and its kind. */
  csv: string;
  /** Requests the script makes in all when every virtual user runs once. */
  requests: number;
  /** Requests per message type in all (inbound and outbound calls by their counts). */
  perType: Record<string, number>;
  /** Virtual users (calls) of each kind. */
  users: { inbound: number; outbound: number };
  /** What the script cannot do that `voice load` does. */
  notes: string[];
}

/** The call list's columns before the literal texts. */
const COLUMNS = ['callId', 'inbound', 'outbound'];

/** One CSV field, quoted when it must be. */
const field = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Arrival phases: one-second steps of the schedule, equal neighbours merged, gaps as pauses. */
function phases(times: number[]): Json[] {
  const last = Math.floor((times[times.length - 1] ?? 0) / 1000);
  const perSecond = new Array<number>(last + 1).fill(0);
  for (const t of times) perSecond[Math.floor(t / 1000)] = (perSecond[Math.floor(t / 1000)] ?? 0) + 1;
  const out: Json[] = [];
  for (const n of perSecond) {
    const prev = out[out.length - 1];
    if (n === 0) {
      if (prev && prev.pause !== undefined) prev.pause = (prev.pause as number) + 1;
      else out.push({ pause: 1 });
    } else if (prev && prev.arrivalCount !== undefined && (prev.arrivalCount as number) / (prev.duration as number) === n) {
      prev.duration = (prev.duration as number) + 1;
      prev.arrivalCount = (prev.arrivalCount as number) + n;
    } else out.push({ duration: 1, arrivalCount: n });
  }
  return out;
}

/**
 * Artillery fills in every `{{ name }}` of a request body (an unknown name becomes "undefined"),
 * and a prompt's own `{{customer.number}}` would be lost. Such texts are read from the call list
 * instead: a value that is one `{{ column }}` and nothing else is sent as that column's text, untouched.
 */
function literals(value: unknown, columns: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    let name = columns.get(value);
    if (!name) columns.set(value, (name = `text${columns.size + 1}`));
    return `{{ ${name} }}`;
  }
  if (Array.isArray(value)) return value.map((v) => literals(v, columns));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literals(v, columns)]));
  return value;
}

/** The flow of one call: its messages in order, with the pauses between them at the run's speed. */
function flow(kept: KeptMessage[], base: string, speed: number, columns: Map<string, string>): Json[] {
  const steps: Json[] = [];
  let at: number | undefined;
  for (const { target, message } of kept) {
    const ts = Number(message.timestamp);
    const gap = at === undefined ? 0 : (ts - at) / 1000 / speed;
    at = ts;
    if (gap >= 0.01) steps.push({ think: Math.round(gap * 1000) / 1000 });
    const id = String((message.call as Json | undefined)?.id ?? '');
    const text = JSON.stringify({ message: literals(message, columns) });
    // Each virtual user is one call: the call id comes from its row of the call list.
    const body = JSON.parse(id ? text.split(id).join('{{ callId }}') : text) as Json;
    const url = target.url.startsWith(base) ? target.url.slice(base.length) || '/' : target.url;
    steps.push({ post: { url, headers: { 'content-type': 'application/json', 'user-agent': 'voice-load', ...target.headers }, json: body, name: message.type } });
  }
  return steps;
}

/**
 * Runs the calls without a server and writes the traffic as an Artillery script (YAML) that reads
 * its calls from `csvPath` (written next to it): each virtual user takes the next row, so every
 * call of the schedule is played once, as its own kind, and the requests per message type are exact.
 */
export async function exportArtillery(o: LoadOptions, csvPath = 'calls.csv'): Promise<ArtilleryExport> {
  if (o.concurrent !== undefined) throw new LoadOptionsError('the Artillery export places calls on a schedule (a rate) and cannot hold lines: export without concurrent');
  const times = startTimes(o);
  const notes: string[] = [];
  // A call of each kind is enough to write its flow; which calls are which comes from the schedule.
  const share = o.inbound ?? 0.5;
  const inboundAt = times.map((_, i) => Math.floor((i + 1) * share) > Math.floor(i * share));
  const inbound = inboundAt.filter(Boolean).length;
  const users = { inbound, outbound: times.length - inbound };
  const recorded = await recordCalls(o);
  if (recorded.some((c) => c.messages.some((k) => k.target.sign))) notes.push('Signed deliveries are sent unsigned: Artillery would need a processor to sign each body.');
  const url = new URL(String((o.assistant.server as Json).url));
  const base = url.origin;
  const flows: Record<'inbound' | 'outbound', Json[]> = { inbound: [], outbound: [] };
  const perType: Record<string, number> = {};
  const columns = new Map<string, string>();
  let requests = 0;
  for (const { kind, messages } of recorded) {
    const n = users[kind];
    flows[kind] = flow(messages, base, o.speed ?? 1, columns);
    for (const k of messages) perType[k.message.type] = (perType[k.message.type] ?? 0) + n;
    requests += messages.length * n;
  }
  if (o.faults?.length) notes.push('Faults are not exported.');
  const texts = [...columns.keys()];
  const csv = [[...COLUMNS, ...columns.values()], ...times.map((_, i) => [randomUUID(), inboundAt[i] ? '1' : '0', inboundAt[i] ? '0' : '1', ...texts])]
    .map((row) => `${row.map(field).join(',')}\n`)
    .join('');
  const doc = {
    config: {
      target: base,
      phases: phases(times),
      // Read in order, row by row: one row a virtual user; left as text (Artillery would turn "0930" into 930).
      payload: [{ path: csvPath, fields: [...COLUMNS, ...columns.values()], order: 'sequence', skipHeader: true, cast: false }],
      http: { timeout: Number((o.assistant.server as Json).timeoutSeconds) || 20 },
    },
    // One scenario: each virtual user plays its row's kind of call (a loop run once or not at all).
    scenarios: [
      {
        name: 'call',
        flow: (['inbound', 'outbound'] as const).filter((k) => users[k]).map((k) => ({ loop: flows[k], count: `{{ ${k} }}` })),
      },
    ],
  };
  const header = `# Written by voice load --export artillery: ${times.length} calls (${users.inbound} inbound, ${users.outbound} outbound), ${requests} requests.\n# Each virtual user plays the next call of ${csvPath}.\n${notes.map((n) => `# ${n}\n`).join('')}`;
  return { text: header + stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }), csv, requests, perType, users, notes };
}
