// Calls and chats for a coding agent: place a test call and wait for its end, then read back what
// happened in one compact answer (transcript, tool calls with arguments and results, deliveries
// with answers, ended reason, latencies); speak as the customer on a live call; chat once.
import { CONTROL_PATHS, sayPath } from '#core/emulator/control/paths';
import { compact, page } from './result.js';
import { platform } from './request.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolError } from './tool.js';

type Json = Record<string, unknown>;

function localOnly(ctx: ToolContext, what: string): void {
  if (ctx.hosted) throw new ToolError(`${what} works on the local platform (voice dev) only`);
}

/** What a finished (or running) call did, compact, its transcript paged. */
async function callReport(ctx: ToolContext, id: string, offset = 0, limit = 40): Promise<Json> {
  const call = (await platform(ctx, { method: 'GET', path: `/call/${encodeURIComponent(id)}` })).body as Json;
  const messages = ((call.messages as Json[] | undefined) ?? []).filter((m) => m.role !== 'system');
  const results = new Map(messages.filter((m) => m.role === 'tool_call_result').map((m) => [m.toolCallId, m.result]));
  const toolCalls = messages
    .filter((m) => m.role === 'tool_calls')
    .flatMap((m) => (m.toolCalls as Json[] | undefined) ?? [])
    .map((c) => {
      const fn = (c.function ?? {}) as Json;
      let args: unknown = fn.arguments;
      try {
        args = JSON.parse(String(fn.arguments));
      } catch {
        // kept as the model sent it
      }
      return { id: c.id, name: fn.name, arguments: args, result: compact(results.get(c.id)) };
    });
  const transcript = messages
    .filter((m) => m.role === 'bot' || m.role === 'assistant' || m.role === 'user')
    .map((m) => ({ role: m.role === 'user' ? 'customer' : 'assistant', text: m.message ?? m.content }));
  const out: Json = {
    callId: id,
    status: call.status,
    endedReason: call.endedReason,
    transcript: page(transcript, offset, limit),
    toolCalls,
    latencies: compact((call.artifact as Json | undefined)?.performanceMetrics),
  };
  if (!ctx.hosted) {
    const deliveries = (await platform(ctx, { method: 'GET', path: CONTROL_PATHS.deliveries, query: { callId: id } })).body as Json[];
    out.deliveries = deliveries.map((d) => ({
      type: d.type,
      url: d.url,
      status: d.status,
      ms: d.ms,
      ...(d.error ? { error: d.error } : {}),
      ...(d.answer !== undefined && d.type !== 'end-of-call-report' ? { answer: compact(d.answer) } : {}),
    }));
    const logs = (await platform(ctx, { method: 'GET', path: '/log', query: { callId: id, limit: 100 } })).body as { results?: Json[] };
    const notes = (logs.results ?? []).filter((l) => l.level === 'WARN' || l.level === 'ERROR').map((l) => l.log);
    if (notes.length) out.warnings = notes;
  }
  return out;
}

async function waitForEnd(ctx: ToolContext, id: string, seconds: number, say: readonly string[]): Promise<void> {
  const until = Date.now() + seconds * 1000;
  const lines = [...say];
  while (Date.now() < until) {
    const call = (await platform(ctx, { method: 'GET', path: `/call/${encodeURIComponent(id)}` })).body as Json;
    if (call.status === 'ended') return;
    if (lines.length && call.status === 'in-progress') {
      const answer = await platform(ctx, { method: 'POST', path: sayPath(id), body: { text: lines[0] }, keepErrors: true });
      if (answer.status < 300) lines.shift();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new ToolError(`call ${id} did not end within ${seconds} s; get_call reads it later, or raise timeoutSeconds`);
}

const testCall: Tool = {
  name: 'test_call',
  description:
    'Place a test call to an assistant on the local platform and wait for it to end. Returns the transcript (paged), every tool call with its arguments and result, every delivery to your servers with its answer, the ended reason and turn latencies. `say` lines are spoken by the customer, in order, as the call goes; from the first one the scripted customer says nothing more, and the call ends 30 s (simulated) after the last answer (silence-timed-out).',
  inputSchema: {
    type: 'object',
    properties: {
      assistantId: { type: 'string', minLength: 1 },
      say: { type: 'array', items: { type: 'string' }, description: 'what the customer says, turn by turn' },
      customerNumber: { type: 'string', description: "the customer's number (default +14155550123)" },
      timeoutSeconds: { type: 'number', minimum: 1, maximum: 600, description: 'how long to wait for the end (default 120)' },
    },
    required: ['assistantId'],
    additionalProperties: false,
  },
  writes: true,
  run: async (args, ctx) => {
    localOnly(ctx, 'test_call');
    const call = (await platform(ctx, { method: 'POST', path: '/call', body: { assistantId: args.assistantId, customer: { number: args.customerNumber ?? '+14155550123' } } })).body as Json;
    await waitForEnd(ctx, String(call.id), Number(args.timeoutSeconds ?? 120), (args.say as string[] | undefined) ?? []);
    return callReport(ctx, String(call.id));
  },
};

const getCall: Tool = {
  name: 'get_call',
  description: 'Read what a call did (running or ended), as test_call returns it; `offset` and `limit` page through a long transcript.',
  inputSchema: {
    type: 'object',
    properties: { callId: { type: 'string', minLength: 1 }, offset: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1, maximum: 200 } },
    required: ['callId'],
    additionalProperties: false,
  },
  run: (args, ctx) => callReport(ctx, String(args.callId), Number(args.offset ?? 0), Number(args.limit ?? 40)),
};

const say: Tool = {
  name: 'say_as_customer',
  description: 'On a live local call, the customer says this (their next turn); from the first line the call is yours: the scripted customer says nothing more.',
  inputSchema: { type: 'object', properties: { callId: { type: 'string', minLength: 1 }, text: { type: 'string', minLength: 1 } }, required: ['callId', 'text'], additionalProperties: false },
  writes: true,
  run: async (args, ctx) => {
    localOnly(ctx, 'say_as_customer');
    await platform(ctx, { method: 'POST', path: sayPath(String(args.callId)), body: { text: args.text } });
    return { said: args.text };
  },
};

const chat: Tool = {
  name: 'test_chat',
  description: 'Send one customer message to an assistant as a chat and return its answer, with the tool calls it made (continue with previousChatId).',
  inputSchema: {
    type: 'object',
    properties: { assistantId: { type: 'string', minLength: 1 }, input: { type: 'string', minLength: 1 }, previousChatId: { type: 'string' } },
    required: ['assistantId', 'input'],
    additionalProperties: false,
  },
  writes: true,
  run: async (args, ctx) => {
    const body = { assistantId: args.assistantId, input: args.input, ...(args.previousChatId ? { previousChatId: args.previousChatId } : {}) };
    const made = (await platform(ctx, { method: 'POST', path: '/chat', body })).body as Json;
    return { chatId: made.id, output: compact(made.output), messages: compact(made.messages) };
  },
};

/** The call and chat tools. */
export const callTools: Tool[] = [testCall, getCall, say, chat];
