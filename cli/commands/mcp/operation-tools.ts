// The API as tools, from the catalogue: find an operation by words, describe it (path values,
// query, body schema from the published schemas), and call it with the body checked first.
import { catalogue, flatten } from '#core/catalogue/index';
import { componentSchema, loadSchemas, messagesOf } from '#core/schemas/validate';
import { MAX_ANSWER_CHARS, sized } from './result.js';
import { platform } from './request.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool.js';

const ENTRIES = flatten(catalogue);
/** Every operation's id, `METHOD /path`, as the tools name them. */
export const OPERATION_IDS = ENTRIES.map((e) => `${e.op.method} ${e.op.path}`);

function entryOf(id: unknown) {
  const entry = ENTRIES.find((e) => `${e.op.method} ${e.op.path}` === id);
  if (!entry) throw new ToolError(`operation: no operation "${String(id)}"; find_operation lists them by words`);
  return entry;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const find: Tool = {
  name: 'find_operation',
  description:
    'Search the platform API (every published operation) by words, e.g. "create assistant", "list calls", "phone number import". Returns operation ids (METHOD /path) with a one-line summary; pass an id to describe_operation or call_operation.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', minLength: 1, description: 'words to look for' }, limit: { type: 'integer', minimum: 1, maximum: 50, description: 'at most this many (default 10)' } },
    required: ['query'],
    additionalProperties: false,
  },
  run: async (args) => {
    const want = words(String(args.query));
    const scored = ENTRIES.map((e) => {
      const hay = words(
        `${e.resource.join(' ')} ${e.action} ${e.op.path} ${e.op.summary} ${e.op.method === 'GET' ? 'get list read' : e.op.method === 'POST' ? 'create post' : e.op.method === 'PATCH' ? 'update patch' : e.op.method === 'DELETE' ? 'delete remove' : 'replace'}`,
      );
      const score = want.reduce((n, w) => n + (hay.includes(w) ? 2 : hay.some((h) => h.startsWith(w) || w.startsWith(h)) ? 1 : 0), 0);
      return { e, score };
    })
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score);
    return { operations: scored.slice(0, Number(args.limit ?? 10)).map(({ e }) => ({ operation: `${e.op.method} ${e.op.path}`, summary: e.op.summary })), matched: scored.length };
  },
};

const describe: Tool = {
  name: 'describe_operation',
  description: 'Describe one API operation: its path values, query parameters and request body schema (from the published API). Large schemas name their parts; pass component to read one part.',
  inputSchema: {
    type: 'object',
    properties: {
      operation: { type: 'string', enum: OPERATION_IDS, description: 'METHOD /path, as find_operation returns' },
      component: { type: 'string', description: 'a schema part named in an earlier answer ($ref), e.g. CreateAssistantDTO' },
    },
    required: ['operation'],
    additionalProperties: false,
  },
  run: async (args) => {
    const { op } = entryOf(args.operation);
    const schemas = await loadSchemas();
    const facts = schemas.operation(op.method, op.path);
    if (typeof args.component === 'string') {
      const schema = await componentSchema(args.component);
      if (!schema) throw new ToolError(`component: no schema part named "${args.component}"`);
      return { component: args.component, schema };
    }
    const request = facts?.request as { $ref?: string } | undefined;
    return {
      operation: `${op.method} ${op.path}`,
      summary: op.summary,
      pathValues: [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      query: op.query,
      body:
        op.body === 'none'
          ? 'none'
          : op.body === 'multipart'
            ? 'multipart (not callable here)'
            : request?.$ref
              ? { $ref: request.$ref, schema: await componentSchema(request.$ref) }
              : (request ?? 'any JSON object'),
      answers: facts?.status,
    };
  },
};

const call: Tool = {
  name: 'call_operation',
  description: `Call one API operation. The body is checked against the published request schema before anything is sent; a refused body comes back naming the fields. Returns the status and the whole answer; one over ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters of JSON keeps what fits, and \`truncated\` says what was left out.`,
  inputSchema: {
    type: 'object',
    properties: {
      operation: { type: 'string', enum: OPERATION_IDS, description: 'METHOD /path, as find_operation returns' },
      path: { type: 'object', description: 'path values by name, e.g. { "id": "..." }', additionalProperties: { type: 'string' } },
      query: { type: 'object', description: 'query parameters by name' },
      body: { type: 'object', description: 'the JSON body (describe_operation shows its schema)' },
    },
    required: ['operation'],
    additionalProperties: false,
  },
  writes: (args) => !String(args.operation).startsWith('GET '),
  run: async (args, ctx) => {
    const { op } = entryOf(args.operation);
    if (op.body === 'multipart') throw new ToolError('operation: uploads (multipart) are not callable through this tool; use the voice CLI');
    const values = (args.path ?? {}) as Record<string, string>;
    const missing = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).filter((n) => !values[n]);
    if (missing.length) throw new ToolError(`path.${missing[0]}: required (this operation's path is ${op.path})`);
    const path = op.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n] as string));
    const unknown = Object.keys((args.query ?? {}) as object).filter((k) => !op.query.includes(k));
    if (unknown.length) throw new ToolError(`query.${unknown[0]}: not a query parameter of ${op.path} (known: ${op.query.join(', ') || 'none'})`);
    if (op.body === 'json') {
      const problems = messagesOf((await loadSchemas()).request(op.method, op.path, args.body ?? {}));
      if (problems.length) throw new ToolError(`body refused before sending: ${problems.map((p) => `body.${p}`).join('; ')}`);
    }
    const answer = await platform(ctx, {
      method: op.method,
      path,
      query: args.query as Record<string, unknown> | undefined,
      body: op.body === 'json' ? (args.body ?? {}) : undefined,
      keepErrors: true,
    });
    if (answer.status >= 400) {
      const message = (answer.body as { message?: unknown } | undefined)?.message;
      throw new ToolError(`${op.method} ${path} answered ${answer.status}: ${Array.isArray(message) ? message.join('; ') : String(message ?? '')}`);
    }
    return { status: answer.status, ...sized(answer.body) };
  },
};

/** The tools over the catalogue. */
export const operationTools: Tool[] = [find, describe, call];
