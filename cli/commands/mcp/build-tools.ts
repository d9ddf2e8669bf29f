// Building blocks a coding agent changes most: an assistant from a short description (prompt,
// first message, function tools and where they are served), the emulator's state, and a server
// message sent to any URL and judged as `voice trigger` judges it.
import { CONTROL_PATHS, restorePath, snapshotPath } from '#core/emulator/control/paths';
import { serverMessageTypes } from '#core/messages/index';
import { loadSchemas, messagesOf } from '#core/schemas/validate';
import { postServerMessage } from '#core/messages/post';
import { triggerMessage } from '../../webhook/trigger-message.js';
import { resultJson } from '../../webhook/trigger-result.js';
import { judgeAnswer } from '../../webhook/types.js';
import { compact } from './result.js';
import { platform } from './request.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolError } from './tool.js';

type Json = Record<string, unknown>;

function assistantBody(args: Json): Json {
  const tools = ((args.tools as Json[] | undefined) ?? []).map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters ?? { type: 'object', properties: {} } },
    ...(t.serverUrl ? { server: { url: t.serverUrl } } : {}),
  }));
  const model = (args.model as Json | undefined) ?? { provider: 'openai', model: 'gpt-4o-mini' };
  return {
    ...(args.name ? { name: args.name } : {}),
    ...(args.firstMessage ? { firstMessage: args.firstMessage } : {}),
    ...(args.serverUrl ? { server: { url: args.serverUrl } } : {}),
    model: { ...model, ...(args.systemPrompt ? { messages: [{ role: 'system', content: args.systemPrompt }] } : {}), ...(tools.length ? { tools } : {}) },
  };
}

const upsert: Tool = {
  name: 'upsert_assistant',
  description:
    'Create an assistant (or update one with id) from a short description: its system prompt, first message, function tools (name, description, JSON Schema parameters, the URL of the server that answers them) and the server that gets its messages. Checked against the published schema before sending.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'update this assistant instead of creating one' },
      name: { type: 'string' },
      systemPrompt: { type: 'string' },
      firstMessage: { type: 'string' },
      serverUrl: { type: 'string', description: "where the assistant's server messages go" },
      model: { type: 'object', description: 'provider and model, default { "provider": "openai", "model": "gpt-4o-mini" }', properties: { provider: { type: 'string' }, model: { type: 'string' } } },
      tools: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 }, description: { type: 'string' }, parameters: { type: 'object' }, serverUrl: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  writes: true,
  run: async (args, ctx) => {
    const body = assistantBody(args);
    const id = typeof args.id === 'string' ? args.id : undefined;
    const problems = messagesOf((await loadSchemas()).request(id ? 'PATCH' : 'POST', id ? '/assistant/{id}' : '/assistant', body));
    if (problems.length) throw new ToolError(`assistant refused before sending: ${problems.join('; ')}`);
    const made = (await platform(ctx, { method: id ? 'PATCH' : 'POST', path: id ? `/assistant/${encodeURIComponent(id)}` : '/assistant', body })).body as Json;
    return { assistantId: made.id, name: made.name, tools: (((made.model as Json | undefined)?.tools as Json[] | undefined) ?? []).map((t) => (t.function as Json | undefined)?.name) };
  },
};

const TYPES = [...serverMessageTypes];

const trigger: Tool = {
  name: 'send_server_message',
  description:
    'Send one realistic server message of any type to a URL (your server), as the platform would, and judge the answer against what the platform accepts (as `voice trigger` does). `set` changes fields by dotted path.',
  inputSchema: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: TYPES },
      url: { type: 'string', minLength: 1 },
      set: { type: 'object', description: 'dotted path -> value, e.g. { "status": "ended" }' },
      timeoutSeconds: { type: 'number', minimum: 1, maximum: 120 },
    },
    required: ['type', 'url'],
    additionalProperties: false,
  },
  run: async (args) => {
    const sets = Object.entries((args.set ?? {}) as Json).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const message = await triggerMessage({ type: String(args.type), sets });
    let url: URL;
    try {
      url = new URL(String(args.url));
    } catch {
      throw new ToolError(`url: not a URL: ${String(args.url)}`);
    }
    const delivery = await postServerMessage(url.href, JSON.stringify({ message }), { headers: {}, timeoutMs: Number(args.timeoutSeconds ?? 20) * 1000 });
    const ok = delivery.status !== undefined && delivery.status >= 200 && delivery.status < 300;
    const verdict = ok ? await judgeAnswer(message, delivery.answer) : undefined;
    return compact(resultJson({ type: message.type, delivery, ...(verdict ? { problems: verdict.problems, notes: verdict.notes } : {}) }));
  },
};

function local(ctx: ToolContext, what: string): void {
  if (ctx.hosted) throw new ToolError(`${what} works on the local platform (voice dev) only`);
}

const reset: Tool = {
  name: 'reset_platform',
  description: 'Put the local platform back to its starting state (running calls are cancelled).',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  writes: true,
  run: async (_args, ctx) => {
    local(ctx, 'reset_platform');
    return (await platform(ctx, { method: 'POST', path: CONTROL_PATHS.reset })).body;
  },
};

const snapshot: Tool = {
  name: 'snapshot_platform',
  description: "Save the local platform's state under a name, restore a saved one, or list the names.",
  inputSchema: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['save', 'restore', 'list'] }, name: { type: 'string', minLength: 1 } },
    required: ['action'],
    additionalProperties: false,
  },
  writes: true,
  run: async (args, ctx) => {
    local(ctx, 'snapshot_platform');
    if (args.action === 'list') return (await platform(ctx, { method: 'GET', path: CONTROL_PATHS.snapshots })).body;
    if (typeof args.name !== 'string') throw new ToolError('name: required to save or restore');
    const path = args.action === 'restore' ? restorePath(args.name) : snapshotPath(args.name);
    return (await platform(ctx, { method: 'POST', path })).body;
  },
};

/** The building tools. */
export const buildTools: Tool[] = [upsert, trigger, reset, snapshot];
