// Record and replay: `voice listen --record FILE` appends each message and the answer it got as
// one JSON line (secrets masked, no request headers kept); `voice trigger --replay FILE` sends
// them again in order and, with --diff, compares each new answer with the recorded one.
import { appendFileSync, readFileSync } from 'node:fs';
import { usageError } from '../errors.js';
import { scrub } from './scrub.js';

/** One recorded message: what arrived and what was answered. */
export interface RecordedLine {
  time: string;
  type: string;
  callId?: string;
  message: Record<string, unknown>;
  status: number;
  answer: unknown;
}

/** Appends one message and its answer to the record file (secret-looking fields masked). */
export function appendRecord(file: string, line: RecordedLine): void {
  const safe = { ...line, message: scrub(line.message), answer: scrub(line.answer) };
  appendFileSync(file, `${JSON.stringify(safe)}\n`);
}

/** Reads a record file; bad lines are a usage error naming the line. */
export function readRecord(file: string): RecordedLine[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw usageError(`--replay ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, 'Record one with: voice listen --record FILE');
  }
  const lines: RecordedLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let line: RecordedLine;
    try {
      line = JSON.parse(raw) as RecordedLine;
    } catch {
      throw usageError(`--replay ${file}: line ${i + 1} is not JSON.`);
    }
    if (!line || typeof line.message !== 'object' || typeof line.message?.type !== 'string') throw usageError(`--replay ${file}: line ${i + 1} has no message with a type.`);
    lines.push(line);
  });
  if (!lines.length) throw usageError(`--replay ${file}: no messages in it.`);
  return lines;
}

/** One field that differs: its path, the recorded value and the new one (undefined = absent). */
export interface FieldDiff {
  path: string;
  recorded: unknown;
  now: unknown;
}

function flatten(value: unknown, path: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    if (!entries.length) out.set(path, Array.isArray(value) ? [] : {});
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
    return;
  }
  out.set(path, value);
}

/** Whether a path is ignored: a named field anywhere (`toolCallId`) or a dotted path (`results.0.time`). */
function ignored(path: string, ignore: readonly string[]): boolean {
  const last = path.split('.').pop() ?? path;
  return ignore.some((i) => i === last || i === path || path.startsWith(`${i}.`));
}

/** Field-level differences between a recorded answer and a new one, ignoring the named fields. */
export function diffAnswers(recorded: unknown, now: unknown, ignore: readonly string[] = []): FieldDiff[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(recorded, '', a);
  flatten(now, '', b);
  const out: FieldDiff[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (ignored(path, ignore)) continue;
    const x = a.get(path);
    const y = b.get(path);
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push({ path: path || '(answer)', recorded: x, now: y });
  }
  return out;
}
