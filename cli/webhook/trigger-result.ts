// The verdict of one `voice trigger`: what the server answered, whether that is right for the
// message type, and how it is shown (lines for people, one object for --json).
import { expectsAnswer } from '#core/messages/index';
import type { PostResult as Delivery } from '#core/messages/post';
import { scrub } from './scrub.js';

/** The outcome of sending one message. */
export interface TriggerResult {
  type: string;
  callId?: string;
  delivery: Delivery;
  /** Problems with the answer (empty: valid); undefined when the type expects no answer. */
  problems?: string[];
  /** What is worth knowing about an accepted answer (fields the schema lists but the platform does not need). */
  notes?: string[];
}

/** True when the server answered 2xx and, for types that expect one, a valid answer. */
export function passed(r: TriggerResult): boolean {
  const s = r.delivery.status;
  return s !== undefined && s >= 200 && s < 300 && (r.problems === undefined || r.problems.length === 0);
}

/** The one-sentence reason a trigger failed (for stderr and the exit code 1). */
export function failureOf(r: TriggerResult): string | undefined {
  const d = r.delivery;
  if (d.status === undefined) return d.failure === 'timeout' ? `No answer from ${d.url}: ${d.reason ?? 'timed out'}.` : `Could not reach ${d.url}: ${d.reason ?? 'failed'}.`;
  if (d.status < 200 || d.status >= 300) return `${d.url} answered ${d.status}${d.statusText ? ` ${d.statusText}` : ''}; the platform treats that as a failed delivery.`;
  if (r.problems?.length) return `The answer to ${r.type} is not what the platform expects (${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}).`;
  return undefined;
}

/** The object `--json` prints. */
export function resultJson(r: TriggerResult): Record<string, unknown> {
  const d = r.delivery;
  return {
    type: r.type,
    callId: r.callId ?? null,
    url: d.url,
    ok: passed(r),
    status: d.status ?? null,
    ms: Math.round(d.ms * 10) / 10,
    answer: d.answer !== undefined ? scrub(d.answer) : d.text === '' ? null : d.text,
    expectsAnswer: expectsAnswer(r.type),
    valid: r.problems === undefined ? null : r.problems.length === 0,
    problems: r.problems ?? [],
    notes: r.notes ?? [],
    ...(d.failure ? { failure: d.failure, reason: d.reason ?? null } : {}),
  };
}

/** The lines shown to people: status and latency, the answer, the verdict. */
export function resultLines(r: TriggerResult, pretty: boolean): { text: string; tone: 'ok' | 'bad' | 'plain' }[] {
  const d = r.delivery;
  const lines: { text: string; tone: 'ok' | 'bad' | 'plain' }[] = [];
  if (d.status === undefined) return lines;
  const good = d.status >= 200 && d.status < 300;
  lines.push({ text: `${d.status}${d.statusText ? ` ${d.statusText}` : ''}  ${Math.round(d.ms)} ms`, tone: good ? 'ok' : 'bad' });
  if (d.answer !== undefined) lines.push({ text: JSON.stringify(scrub(d.answer), null, pretty ? 2 : undefined), tone: 'plain' });
  else if (d.text !== '') lines.push({ text: d.text.length > 2000 ? `${d.text.slice(0, 2000)}…` : d.text, tone: 'plain' });
  else lines.push({ text: '(empty answer)', tone: 'plain' });
  if (!good) return lines;
  if (r.problems === undefined) lines.push({ text: `${r.type} expects no answer: delivered.`, tone: 'ok' });
  else if (r.problems.length === 0) {
    lines.push({ text: `Valid ${r.type} answer.`, tone: 'ok' });
    for (const n of r.notes ?? []) lines.push({ text: `  Note: ${n}`, tone: 'plain' });
  } else {
    lines.push({ text: `Invalid ${r.type} answer:`, tone: 'bad' });
    for (const p of r.problems) lines.push({ text: `  - ${p}`, tone: 'bad' });
  }
  return lines;
}
