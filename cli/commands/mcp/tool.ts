// What every `voice mcp` tool is: a name, a description a model reads, a JSON Schema for its
// input, and a handler. Input is checked against the schema before the handler runs, so a bad
// argument comes back as a tool error naming the field, never as a crash.
import { ToolError } from '../../errors.js';

export { ToolError };

/** A JSON Schema as MCP carries it (objects at the top). */
export type JsonSchema = Record<string, unknown>;

/** Where a tool sends its requests and what it may do. */
export interface ToolContext {
  /** Base URL of the platform the tools work on (`voice dev`, or the hosted API with --hosted). */
  baseUrl: string;
  /** Bearer key for it; never part of any tool output. */
  apiKey: string;
  /** Working on the hosted platform. */
  hosted: boolean;
  /** Writes are allowed (always on the local platform; with --allow-writes on the hosted one). */
  allowWrites: boolean;
  /** The platform runs elsewhere (`--api-url`, a `voice dev`): `run_tests` applies the folder there and runs on it, with its model. */
  running?: boolean;
  /** The model flags (`--llm ...`) `voice test` gets for a local run, as `voice mcp` was given them. */
  modelFlags?: readonly string[];
  /** The `--llm-key` given, passed to `voice test` as VOICE_LLM_KEY (never in a flag or an answer). */
  modelKey?: string;
}

/** One tool. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Changes something on the platform (refused on the hosted platform without --allow-writes). */
  writes?: boolean | ((args: Record<string, unknown>) => boolean);
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function fits(type: unknown, v: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const t = typeOf(v);
  return types.some((want) => want === undefined || want === t || (want === 'number' && t === 'integer'));
}

/** Problems of a tool's arguments against its input schema: `field: what is wrong`, one per problem. */
export function argumentProblems(schema: JsonSchema, args: unknown, at = ''): string[] {
  const name = at || 'arguments';
  if (!fits(schema.type, args)) return [`${name}: expected ${String(schema.type)}, got ${typeOf(args)}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(args))
    return [
      `${name}: must be one of ${schema.enum
        .slice(0, 12)
        .map((e) => JSON.stringify(e))
        .join(', ')}${schema.enum.length > 12 ? ', ...' : ''}`,
    ];
  if (typeof args === 'string' && typeof schema.minLength === 'number' && args.length < schema.minLength) return [`${name}: must not be empty`];
  if (typeof args === 'number' && typeof schema.minimum === 'number' && args < schema.minimum) return [`${name}: must be at least ${schema.minimum}`];
  if (typeof args === 'number' && typeof schema.maximum === 'number' && args > schema.maximum) return [`${name}: must be at most ${schema.maximum}`];
  const out: string[] = [];
  if (Array.isArray(args) && schema.items) args.forEach((v, i) => out.push(...argumentProblems(schema.items as JsonSchema, v, `${name}[${i}]`)));
  if (typeOf(args) === 'object') {
    const obj = args as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const req of (schema.required as string[] | undefined) ?? []) if (obj[req] === undefined) out.push(`${at ? `${at}.` : ''}${req}: required`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = props[k];
      if (sub) out.push(...argumentProblems(sub, v, at ? `${at}.${k}` : k));
      else if (schema.additionalProperties === false) out.push(`${at ? `${at}.` : ''}${k}: unknown field (known: ${Object.keys(props).join(', ')})`);
    }
  }
  return out;
}
