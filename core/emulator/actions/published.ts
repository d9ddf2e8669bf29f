// Actions of the published resources beyond the spec that are not evals or recordings:
// structured-output runs, chat completions, code-tool tests, insight runs, the default board,
// billing metrics, v2 knowledge-base files and provider resources.
import { randomUUID } from 'node:crypto';
import type { Ctx, Handler } from '../http/context.js';
import { createIn, find } from '../resources/crud.js';
import { badRequest, notFound } from '../errors.js';
import { compileList } from '../resources/lists.js';
import type { Rec } from '../store/store.js';
import { check } from '../resources/validate.js';
import { replyTo } from './chat.js';
import { randomName, topLevel } from './place.js';

export { runStructuredOutput } from './structured-run.js';

/** `POST /chat/completions`: the stand-in assistant's reply in the OpenAI chat-completions shape. */
export const chatCompletions: Handler = (ctx) => {
  // The published schema checked the body's fields; it sets no minimum, but there is nothing to answer without a message.
  check(ctx.body, { messages: { type: 'array', min: 1 } });
  const messages = ctx.body.messages as Array<Record<string, unknown>>;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const content = replyTo(typeof last?.content === 'string' ? last.content : '');
  const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
  const prompt = messages.reduce((n, m) => n + words(String(m.content ?? '')), 0);
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomName(24)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'voice-emulator',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: words(content), total_tokens: prompt + words(content) },
    },
  };
};

/** `POST /tool/code/test`: the emulator never runs code, and says so in the published result shape. */
export const codeTest: Handler = () => ({
  status: 201,
  body: { success: false, error: 'The local emulator does not run code tools; test them against the hosted platform.', logs: '', executionTimeMs: 0 },
});

function insightResult(ctx: Ctx): Record<string, unknown>[] {
  const calls = ctx.store.all('call');
  return [{ callCount: calls.length, totalCost: calls.reduce((n, c) => n + (typeof c.cost === 'number' ? c.cost : 0), 0) }];
}

/** `POST /reporting/insight/{id}/run`: the insight computed over the stored calls (count and cost). */
export const runInsight: Handler = (ctx) => {
  const insight = find(ctx, { ...topLevel('reporting/insight'), idParam: 'id' });
  const now = new Date().toISOString();
  return { status: 201, body: { id: randomUUID(), insightId: insight.id, orgId: ctx.store.orgId, createdAt: now, updatedAt: now, result: insightResult(ctx) } };
};

/** `POST /reporting/insight/preview`: the same for an insight that is not saved. */
export const previewInsight: Handler = (ctx) => {
  const now = new Date().toISOString();
  return { status: 201, body: { id: randomUUID(), insightId: 'preview', orgId: ctx.store.orgId, createdAt: now, updatedAt: now, result: insightResult(ctx) } };
};

/** `GET /reporting/board/default/metrics-overview`: the default board, created on first use. */
export const metricsOverview: Handler = (ctx) => {
  const existing = ctx.store.all('reporting/board').find((b) => b.systemKey === 'metrics-overview');
  if (existing) return { status: 200, body: existing };
  const board = ctx.store.insert('reporting/board', { name: 'Metrics overview', systemKey: 'metrics-overview', layout: { columns: 6 }, items: [] });
  return { status: 200, body: board, changed: true };
};

function dayOf(iso: unknown): string {
  return typeof iso === 'string' ? iso.slice(0, 10) : 'unknown';
}

/** `GET /metrics`: billing metrics over the stored calls created in the range (default: the last 30 days). */
export const metrics: Handler = (ctx) => {
  const end = ctx.query.rangeEnd ? Date.parse(String(ctx.query.rangeEnd)) : Date.now();
  const start = ctx.query.rangeStart ? Date.parse(String(ctx.query.rangeStart)) : end - 30 * 86_400_000;
  if (Number.isNaN(start) || Number.isNaN(end)) throw badRequest(['rangeStart and rangeEnd must be valid ISO 8601 date strings']);
  const calls = ctx.store.all('call').filter((c) => {
    const t = Date.parse(c.createdAt);
    return t >= start && t <= end;
  });
  const minutesOf = (c: Rec): number => {
    const ms = Date.parse(String(c.endedAt)) - Date.parse(String(c.startedAt));
    return Number.isFinite(ms) && ms > 0 ? ms / 60_000 : 0;
  };
  const bill: Record<string, number> = {};
  const minutes: Record<string, number> = {};
  const count: Record<string, number> = {};
  for (const c of calls) {
    const d = dayOf(c.createdAt);
    bill[d] = (bill[d] ?? 0) + (typeof c.cost === 'number' ? c.cost : 0);
    minutes[d] = (minutes[d] ?? 0) + minutesOf(c);
    count[d] = (count[d] ?? 0) + 1;
  }
  const average: Record<string, number> = {};
  for (const d of Object.keys(count)) average[d] = (minutes[d] ?? 0) / (count[d] as number);
  const total = (o: Record<string, number>): number => Object.values(o).reduce((n, x) => n + x, 0);
  const active = calls.filter((c) => c.status !== 'ended').length;
  return {
    status: 200,
    body: [
      {
        orgId: ctx.store.orgId,
        rangeStart: new Date(start).toISOString(),
        rangeEnd: new Date(end).toISOString(),
        bill: total(bill),
        billWithinBillingLimit: true,
        billDailyBreakdown: bill,
        callActive: active,
        callActiveWithinConcurrencyLimit: active <= 10,
        callMinutes: total(minutes),
        callMinutesDailyBreakdown: minutes,
        callMinutesAverage: calls.length ? total(minutes) / calls.length : 0,
        callMinutesAverageDailyBreakdown: average,
        callCount: calls.length,
        callCountDailyBreakdown: count,
      },
    ],
  };
};

const KB = { ...topLevel('v2/knowledge-base'), idParam: 'id' };
const KB_FILES = 'v2/knowledge-base/file';

/** The attachment `{fileId}` names: the attachment record's id or the attached file's own id (the reference does not settle which). */
function kbFile(ctx: Ctx): Rec {
  const kb = find(ctx, KB);
  const id = ctx.params.fileId as string;
  const byRecord = ctx.store.get(KB_FILES, id);
  const file = byRecord?.knowledgeBaseV2Id === kb.id ? byRecord : ctx.store.all(KB_FILES).find((f) => f.knowledgeBaseV2Id === kb.id && f.fileId === id);
  if (!file) throw notFound('Knowledge base file');
  return file;
}

/** `GET /v2/knowledge-base/{id}`: the knowledge base with its files. */
export const getKnowledgeBase: Handler = (ctx) => {
  const kb = find(ctx, KB);
  return { status: 200, body: { ...kb, files: ctx.store.all(KB_FILES).filter((f) => f.knowledgeBaseV2Id === kb.id) } };
};

/** `GET /v2/knowledge-base/{id}/file`: the attached files, newest first. */
export const listKbFiles: Handler = (ctx) => {
  const kb = find(ctx, KB);
  return {
    status: 200,
    body: ctx.store
      .all(KB_FILES)
      .filter((f) => f.knowledgeBaseV2Id === kb.id)
      .reverse(),
  };
};

/** `POST /v2/knowledge-base/{id}/file`: attaches an uploaded file; the emulator indexes at once. */
export const attachKbFile: Handler = (ctx) => {
  const kb = find(ctx, KB);
  const file = ctx.store.get('file', ctx.body.fileId as string);
  if (!file) throw notFound('File');
  const rec = ctx.store.insert(KB_FILES, { knowledgeBaseV2Id: kb.id, fileId: file.id, fileName: file.name, mimetype: file.mimetype, bytes: file.bytes, status: 'ready' }, { scoped: false });
  return { status: 201, body: rec, changed: true };
};

/** `DELETE /v2/knowledge-base/{id}/file/{fileId}`: detaches a file. */
export const detachKbFile: Handler = (ctx) => {
  const file = kbFile(ctx);
  ctx.store.remove(KB_FILES, file.id);
  return { status: 200, body: file, changed: true };
};

/** `POST /v2/knowledge-base/{id}/file/{fileId}/retry`: indexes the file again (ready at once). */
export const retryKbFile: Handler = (ctx) => {
  const file = kbFile(ctx);
  file.status = 'ready';
  return { status: 201, body: ctx.store.touch(file), changed: true };
};

const PROVIDERS = ['cartesia', '11labs'];
const RESOURCES = ['pronunciation-dictionary'];
const RESOURCE_COLLECTION = 'provider-resource';

function providerScope(ctx: Ctx): { provider: string; resourceName: string } {
  const { provider, resourceName } = ctx.params as { provider: string; resourceName: string };
  const problems: string[] = [];
  if (!PROVIDERS.includes(provider)) problems.push(`provider must be one of the following values: ${PROVIDERS.join(', ')}`);
  if (!RESOURCES.includes(resourceName)) problems.push(`resourceName must be one of the following values: ${RESOURCES.join(', ')}`);
  if (problems.length) throw badRequest(problems);
  return { provider, resourceName };
}

function providerResource(ctx: Ctx): Rec {
  const scope = providerScope(ctx);
  const rec = ctx.store.get(RESOURCE_COLLECTION, ctx.params.id as string);
  if (!rec || rec.provider !== scope.provider || rec.resourceName !== scope.resourceName) throw notFound('Provider resource');
  return rec;
}

/** Create, list, get, update and delete of `/provider/{provider}/{resourceName}` resources. */
export function providerResources(action: string, query: readonly string[]): Handler | undefined {
  switch (action) {
    case 'create':
      return (ctx) => {
        const rec = createIn(ctx, topLevel(RESOURCE_COLLECTION), { ...providerScope(ctx), resourceId: randomName(20), resource: { rules: [] } });
        return { status: 201, body: rec, changed: true };
      };
    case 'list': {
      const list = compileList(query, 'paginated');
      return (ctx) => {
        const scope = providerScope(ctx);
        return { status: 200, body: list(ctx.store.all(RESOURCE_COLLECTION), ctx.query, (r) => r.provider === scope.provider && r.resourceName === scope.resourceName) };
      };
    }
    case 'get':
      return (ctx) => ({ status: 200, body: providerResource(ctx) });
    case 'update':
      return (ctx) => ({ status: 200, body: ctx.store.touch(providerResource(ctx)), changed: true });
    case 'delete':
      return (ctx) => {
        const rec = providerResource(ctx);
        ctx.store.remove(RESOURCE_COLLECTION, rec.id);
        return { status: 200, body: rec, changed: true };
      };
    default:
      return undefined;
  }
}
