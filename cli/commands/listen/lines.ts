// How `voice listen` shows one received message: a line for people (type, call, detail, what
// the answer was) and an object for --json, plus a warning line per problem with the answer.
import type { Line } from '../../webhook/lines.js';
import type { Received } from '../../webhook/receiver.js';
import { scrub } from '../../webhook/scrub.js';
import { detailOf, short } from '../../webhook/summary.js';

const WIDTHS = [28, 36, 0] as const;

function answerText(r: Received): string {
  if (r.reply.noop) return r.reply.status === 200 ? 'answered: no-op' : `answered: no-op ${r.reply.status}`;
  const d = r.forwarded;
  if (!d) return '';
  if (d.status === undefined) return `-> ${d.failure === 'timeout' ? 'timeout' : 'failed'}: ${d.reason ?? ''} (answered ${r.reply.status})`;
  return `-> ${d.status} ${Math.round(d.ms)} ms${d.failure === 'not-json' ? ' (not JSON)' : ''}`;
}

/** The lines printed for one received request (none for a filtered message). */
export function receivedLine(r: Received): Line[] {
  if (r.filtered) return [];
  if (r.refused || !r.message) {
    return [{ time: r.time, columns: ['refused', r.path, r.refused ?? ''], widths: WIDTHS, tone: 'bad', json: { refused: r.refused, path: r.path, status: r.reply.status } }];
  }
  const detail = detailOf(r.message);
  const answer = answerText(r);
  const d = r.forwarded;
  const failed = d !== undefined && (d.status === undefined || d.status >= 300);
  const lines: Line[] = [
    {
      time: r.time,
      columns: [r.type ?? '?', r.callId ?? '-', detail, answer],
      widths: WIDTHS,
      ...(failed ? { tone: 'bad' as const } : {}),
      json: {
        type: r.type,
        callId: r.callId ?? null,
        path: r.path,
        detail,
        message: scrub(r.message),
        answer: {
          status: r.reply.status,
          noop: r.reply.noop,
          body: scrub(r.reply.body),
          ...(d ? { ms: Math.round(d.ms * 10) / 10, url: d.url } : {}),
          ...(d?.failure ? { failure: d.failure, reason: d.reason } : {}),
        },
        ...(r.problems ? { problems: r.problems } : {}),
        ...(r.notes ? { notes: r.notes } : {}),
      },
    },
  ];
  for (const p of r.problems ?? []) {
    lines.push({ time: r.time, columns: ['bad answer', r.callId ?? '-', short(p, 200)], widths: WIDTHS, tone: 'warn' });
  }
  for (const n of r.notes ?? []) lines.push({ time: r.time, columns: ['note', r.callId ?? '-', short(n, 200)], widths: WIDTHS, tone: 'dim' });
  return lines;
}
