// Calls: outbound phone calls, web calls with a room URL, and their logs.
import type { Ctx, Handler, Reply } from '../http/context.js';
import { createIn, deepMerge } from '../resources/crud.js';
import { badRequest, HttpError } from '../errors.js';
import { compileList, pick } from '../resources/lists.js';
import type { Rec } from '../store/store.js';
import { LOCAL_WEBCALL_PATH } from '../../webcall/local-protocol.js';
import { editable, randomName, topLevel } from './place.js';
import { logCall } from '../calls/index.js';

const CALLS = topLevel('call');

function hasCustomer(body: Record<string, unknown>): boolean {
  const c = body.customer as Record<string, unknown> | undefined;
  return typeof body.customerId === 'string' || (c !== null && typeof c === 'object' && (typeof c.number === 'string' || typeof c.sipUri === 'string'));
}

function phoneCall(ctx: Ctx, body: Record<string, unknown>): Rec {
  if (!hasCustomer(body)) {
    throw badRequest('customer.number or customerId is required to place a phone call (use POST /call/web for a call from a browser)');
  }
  const call = createIn(ctx, CALLS, { type: 'outboundPhoneCall', status: 'queued', phoneCallProvider: 'vapi', phoneCallTransport: 'pstn', cost: 0, ...body });
  logCall(ctx.store, call, `Outbound call to ${String((body.customer as Record<string, unknown> | undefined)?.number ?? body.customerId)} queued`);
  ctx.env.calls?.start(call);
  return call;
}

/** `POST /call`: a phone call to `customer` (or one per entry of `customers`). */
export const createCall: Handler = (ctx) => {
  const { customers, ...rest } = ctx.body;
  if (Array.isArray(customers)) {
    const results = customers.map((customer) => phoneCall(ctx, { ...rest, customer }));
    return { status: 201, body: { results, errors: [] }, changed: true };
  }
  return { status: 201, body: phoneCall(ctx, ctx.body), changed: true };
};

/** `POST /call/phone`: an outbound phone call. */
export const phoneCallHandler: Handler = (ctx) => ({ status: 201, body: phoneCall(ctx, ctx.body), changed: true });

/** The assistant a web call runs: inline, or the stored one with the overrides applied. */
function resolveAssistant(ctx: Ctx): Record<string, unknown> | undefined {
  const { assistant, assistantId, assistantOverrides } = ctx.body;
  let resolved: Record<string, unknown> | undefined;
  if (assistant && typeof assistant === 'object') resolved = structuredClone(assistant as Record<string, unknown>);
  else if (typeof assistantId === 'string') {
    const stored = ctx.store.get('assistant', assistantId);
    if (stored) resolved = structuredClone(editable(stored));
  }
  if (resolved && assistantOverrides && typeof assistantOverrides === 'object') deepMerge(resolved, assistantOverrides as Record<string, unknown>);
  return resolved;
}

/** `POST /call/web`: a web call with the room URL the browser joins. */
export const webCall: Handler = (ctx): Reply => {
  const b = ctx.body;
  if (!b.assistant && !b.assistantId && !b.squad && !b.squadId && !b.workflow && !b.workflowId) {
    throw new HttpError(400, ['Assistant or Squad or Workflow must be provided.']);
  }
  const assistant = resolveAssistant(ctx);
  const artifactPlan = (assistant?.artifactPlan as Record<string, unknown> | undefined) ?? { videoRecordingEnabled: false };
  const call = createIn(ctx, CALLS, {
    type: 'webCall',
    status: 'queued',
    cost: 0,
    ...b,
    ...(assistant ? { assistant } : {}),
    artifactPlan,
  });
  // The browser joins the emulator's own call unless rooms are elsewhere (a Daily domain). Only the
  // creation answers with the URL: the platform's Call (GET /call, messages) has no such field.
  const base = ctx.env.webCallUrlBase;
  const webCallUrl = base ? `${base}/${randomName(20)}` : `${ctx.env.url}${LOCAL_WEBCALL_PATH}${encodeURIComponent(call.id)}`;
  logCall(ctx.store, call, 'Web call created');
  return { status: 201, body: { ...call, webCallUrl }, changed: true };
};

/** `DELETE /log` and `DELETE /logs`: removes the logs matching the query. */
export function deleteLogs(status: number, fields: readonly string[]): Handler {
  return (ctx) => {
    const wanted = fields.filter((f) => typeof ctx.query[f] === 'string');
    const deleted = ctx.store.removeWhere('log', (rec) => wanted.every((f) => String(rec[f]) === ctx.query[f]));
    return { status, body: { deleted }, changed: deleted > 0 };
  };
}

const EXPORT_COLUMNS = ['id', 'type', 'status', 'assistantId', 'phoneNumberId', 'customer.number', 'cost', 'endedReason', 'startedAt', 'endedAt', 'createdAt'];
const EXPORT_QUERY = ['assistantId', 'id', 'idAny', 'createdAtGt', 'createdAtLt', 'createdAtGe', 'createdAtLe', 'updatedAtGt', 'updatedAtLt', 'updatedAtGe', 'updatedAtLe', 'limit'];

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `GET /v2/call/export`: the matching calls as CSV (or JSON with `format=json`), newest first. */
export function exportCalls(): Handler {
  const list = compileList(EXPORT_QUERY, 'plain');
  return (ctx) => {
    const format = ctx.query.format ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw badRequest('format must be one of the following values: csv, json');
    const calls = list(ctx.store.all('call'), { limit: '1000', ...ctx.query }) as Rec[];
    if (format === 'json') return { status: 200, body: calls };
    const raw = ctx.query.columns;
    const columns = raw === undefined ? EXPORT_COLUMNS : (Array.isArray(raw) ? raw : raw.split(',')).map((c) => c.trim()).filter(Boolean);
    const lines = [columns.join(','), ...calls.map((c) => columns.map((col) => csvCell(pick(c, col))).join(','))];
    return { status: 200, body: `${lines.join('\r\n')}\r\n`, contentType: 'text/csv; charset=utf-8' };
  };
}
