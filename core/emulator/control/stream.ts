// `GET /__voice/events`: the record, live, as server-sent events (`voice call watch`, curl, the
// inspector). By default one SSE message per event, as it happens. Two options for a page left
// open while a hundred calls run (the inspector asks for both):
// - `lite=1`: compact events. Deliveries without their headers and bodies (`stripped: true`; a
//   `tool-calls` delivery keeps its tool calls and the answer's results), and each `call.status`
//   carries `call`, a summary of the call object as it is then (what a calls list shows), so the
//   page needs no REST request to keep its list current; the whole of either is one GET away.
// - `batch=MS` (50 to 2000): the events of each MS milliseconds go out as one SSE message
//   `event: batch` whose data is a JSON array of them (`id:` is the last one's sequence number),
//   so a busy emulator writes a few messages a second to each page instead of thousands.
// And `kinds=call.status,delivery` (any of the event kinds, comma-separated) sends only those, so a
// view follows what it shows: a calls list needs the status changes, not every REST request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { maskSecrets } from '../store/mask.js';
import type { Delivery, EmulatorRecord, RecordEvent } from '../store/record.js';
import type { Store } from '../store/store.js';

/** The fields of a call object a calls list shows (`lite=1` puts them on `call.status` events). */
export const SUMMARY_FIELDS = ['id', 'type', 'status', 'createdAt', 'startedAt', 'endedAt', 'endedReason', 'cost', 'assistantId', 'squadId', 'workflowId', 'phoneNumberId'] as const;

/** A call object cut to what a list shows (plus the customer's number and name, the assistant's name). */
export function callSummary(call: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SUMMARY_FIELDS) if (call[k] !== undefined) out[k] = call[k];
  const customer = call.customer as { number?: unknown; name?: unknown } | undefined;
  if (customer && typeof customer === 'object')
    out.customer = { ...(customer.number !== undefined ? { number: customer.number } : {}), ...(customer.name !== undefined ? { name: customer.name } : {}) };
  const assistant = call.assistant as { name?: unknown } | undefined;
  if (assistant && typeof assistant === 'object' && assistant.name !== undefined) out.assistant = { name: assistant.name };
  return out;
}

/** A delivery without its headers and bodies (`stripped: true`); `tool-calls` keep their tool calls and the answer's results. */
export function stripDelivery(d: Delivery): Delivery & { stripped: true } {
  const { answer, request, ...rest } = d;
  const message: Record<string, unknown> = { type: d.type };
  let kept: unknown;
  if (d.type === 'tool-calls') {
    const list = request.body.message.toolCallList;
    if (list !== undefined) message.toolCallList = list;
    const results = answer !== null && typeof answer === 'object' ? (answer as { results?: unknown }).results : undefined;
    if (results !== undefined) kept = { results };
  }
  return { ...rest, request: { headers: {}, body: { message } }, ...(kept !== undefined ? { answer: kept } : {}), stripped: true };
}

const BATCH_MIN = 50;
const BATCH_MAX = 2000;
/** Most events in one SSE message when the record is replayed to a new reader. */
const REPLAY_CHUNK = 2000;

/** Follows the record for one reader until it goes away. */
export function streamEvents(req: IncomingMessage, res: ServerResponse, record: EmulatorRecord, store: Store, query: Record<string, string | string[]>): void {
  const callId = typeof query.callId === 'string' ? query.callId : undefined;
  const last = req.headers['last-event-id'];
  // A reconnecting EventSource sends the last id it got: that wins over the URL's `since` (a page
  // opened with `since=0` would otherwise be sent the whole record again, twice over).
  const since = Number(typeof last === 'string' ? last : typeof query.since === 'string' ? query.since : NaN);
  const lite = query.lite === '1';
  const batchMs = typeof query.batch === 'string' && query.batch !== '' ? Math.min(BATCH_MAX, Math.max(BATCH_MIN, Number(query.batch) || BATCH_MIN)) : 0;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'access-control-allow-origin': '*' });
  res.write('retry: 1000\n\n');
  const shown = (e: RecordEvent): unknown => {
    // A delivery's secrets (a server's x-vapi-secret, a signature) never leave the record.
    if (!lite) return e.kind === 'delivery' ? { ...e, delivery: maskSecrets(e.delivery) } : e;
    if (e.kind === 'delivery') return { ...e, delivery: stripDelivery(e.delivery) };
    if (e.kind === 'call.status') {
      const call = store.get('call', e.callId);
      return call ? { ...e, call: callSummary(call) } : e;
    }
    return e;
  };
  const kinds = typeof query.kinds === 'string' && query.kinds !== '' ? new Set(query.kinds.split(',')) : undefined;
  const wanted = (e: RecordEvent): boolean => (!callId || ('callId' in e && e.callId === callId)) && (!kinds || kinds.has(e.kind));
  let queue: unknown[] = [];
  let lastSeq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!queue.length) return;
    res.write(`id: ${lastSeq}\nevent: batch\ndata: ${JSON.stringify(queue)}\n\n`);
    queue = [];
  };
  const write = (e: RecordEvent): void => {
    if (!wanted(e)) return;
    if (!batchMs) {
      res.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify(shown(e))}\n\n`);
      return;
    }
    queue.push(shown(e));
    lastSeq = e.seq;
    timer ??= setTimeout(flush, batchMs);
  };
  if (Number.isFinite(since)) {
    for (const e of record.list({ since, ...(callId ? { callId } : {}) })) {
      write(e);
      if (queue.length >= REPLAY_CHUNK) flush();
    }
    if (batchMs) flush();
  }
  const stop = record.subscribe(write);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  ping.unref();
  req.on('close', () => {
    stop();
    clearInterval(ping);
    clearTimeout(timer);
  });
}
