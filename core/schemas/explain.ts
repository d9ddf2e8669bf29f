// Turns ajv's errors into the platform's validation messages: one readable sentence per problem,
// each starting with the dotted path of the field ("model.provider must be one of ..."), as the
// platform's 400 answers put them in `message`.
import type { ErrorObject } from 'ajv';

/** ajv's error plus the schema and value of the keyword that failed, kept when errors travel up through references. */
export type TracedError = ErrorObject & { origSchema?: unknown; origData?: unknown };

/** One problem with a value: the dotted field path ('' for the whole value) and the platform-style message. */
export interface SchemaError {
  path: string;
  message: string;
  /** Which rule failed, for callers that treat some rules apart (never read off the message): a value missing or empty, a field the schema does not have, a value outside a fixed list. */
  rule?: 'required' | 'unknown-field' | 'one-of';
  /** With `one-of`: the values allowed. */
  allowed?: string[];
}

/** Resolves a `{ $ref }` to the component it names (other schemas are returned as they are). */
export type Resolve = (schema: unknown) => Record<string, unknown>;

/** What explaining a union needs: references resolved, and one branch checked on its own. */
export interface ExplainContext {
  resolve: Resolve;
  check: (schema: unknown, data: unknown, prefix: string) => SchemaError[];
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer number',
  boolean: 'a boolean value',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

const FORMAT: Record<string, string> = {
  'date-time': 'must be a valid ISO 8601 date string',
  uuid: 'must be a UUID',
  uri: 'must be a URL address',
};

/** `a` + `b` as a dotted path. */
function join(a: string, b: string | number): string {
  return a ? `${a}.${b}` : String(b);
}

function dotted(prefix: string, pointer: string): string {
  if (!pointer) return prefix;
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce(join, prefix);
}

function within(path: string, outer: string): boolean {
  return path === outer || path.startsWith(`${outer}/`);
}

function typeName(t: unknown): string {
  const list = Array.isArray(t) ? t : String(t).split(',');
  const first = (list as string[]).find((x) => x !== 'null') ?? 'null';
  return ARTICLE[first] ?? first;
}

function oneOf(path: string, name: string, list: unknown): SchemaError[] {
  const allowed = (Array.isArray(list) ? list : [list]).filter((v) => v !== null).map(String);
  return [{ path, message: `${name} must be one of the following values: ${allowed.join(', ')}`, rule: 'one-of', allowed }];
}

function describe(e: TracedError, prefix: string): SchemaError[] {
  const path = dotted(prefix, e.instancePath);
  const name = path || 'body';
  const p = e.params as Record<string, unknown>;
  const one = (message: string, at = path): SchemaError[] => [{ path: at, message }];
  switch (e.keyword) {
    case 'required': {
      const field = join(path, String(p.missingProperty));
      return [{ path: field, message: `${field} should not be empty`, rule: 'required' }];
    }
    case 'additionalProperties': {
      const field = join(path, String(p.additionalProperty));
      return [{ path: field, message: `${path ? `${path}.` : ''}property ${String(p.additionalProperty)} should not exist`, rule: 'unknown-field' }];
    }
    case 'type':
      return one(`${name} must be ${typeName(p.type)}`);
    case 'enum':
      return oneOf(path, name, p.allowedValues);
    case 'const':
      return oneOf(path, name, p.allowedValue);
    case 'format':
      return one(`${name} ${FORMAT[String(p.format)] ?? `must be a valid ${String(p.format)}`}`);
    case 'pattern':
      return one(`${name} must match ${String(p.pattern)} regular expression`);
    case 'minLength':
      if (Number(p.limit) === 1) return [{ path, message: `${name} should not be empty`, rule: 'required' }];
      return one(`${name} must be longer than or equal to ${String(p.limit)} characters`);
    case 'maxLength':
      return one(`${name} must be shorter than or equal to ${String(p.limit)} characters`);
    case 'minimum':
    case 'exclusiveMinimum':
      return one(`${name} must not be less than ${String(p.limit)}`);
    case 'maximum':
    case 'exclusiveMaximum':
      return one(`${name} must not be greater than ${String(p.limit)}`);
    case 'minItems':
      return one(`${name} must contain at least ${String(p.limit)} elements`);
    case 'maxItems':
      return one(`${name} must contain no more than ${String(p.limit)} elements`);
    case 'discriminator': {
      const tag = String(p.tag);
      const field = join(path, tag);
      const allowed = (p.allowed as string[] | undefined) ?? [];
      const out: SchemaError[] = [];
      if (p.tagValue === undefined || p.tagValue === null || p.tagValue === '') out.push({ path: field, message: `${field} should not be empty`, rule: 'required' });
      else if (typeof p.tagValue !== 'string') out.push({ path: field, message: `${field} must be a string` });
      out.push(...oneOf(field, field, allowed));
      return out;
    }
    default:
      return one(`${name} ${e.message ?? 'is not valid'}`);
  }
}

/** The problems of the branch of an untagged union that comes closest to fitting. */
function closestBranch(e: TracedError, ctx: ExplainContext, prefix: string): SchemaError[] {
  const path = dotted(prefix, e.instancePath);
  const schema = e.origSchema ?? e.schema;
  const data = 'origData' in e ? e.origData : e.data;
  const branches = (Array.isArray(schema) ? schema : []) as unknown[];
  let best: SchemaError[] | undefined;
  for (const branch of branches) {
    // `null` is a branch only for nullable fields; the value's real shape says more.
    if (ctx.resolve(branch).type === 'null' && data !== null) continue;
    const found = ctx.check(branch, data, path);
    if (!best || found.length < best.length) best = found;
  }
  return best?.length ? best : [{ path, message: `${path || 'body'} does not fit any of the allowed shapes` }];
}

/** Readable problems from ajv's errors (with `verbose` on); `prefix` is the dotted path of the value. */
export function explain(errors: readonly TracedError[], ctx: ExplainContext, prefix = ''): SchemaError[] {
  const isUnion = (e: TracedError): boolean => e.keyword === 'anyOf' || e.keyword === 'oneOf';
  const unions = errors.filter(isUnion).sort((a, b) => a.instancePath.length - b.instancePath.length);
  const handled: string[] = [];
  const out: SchemaError[] = [];
  for (const u of unions) {
    if (handled.some((h) => within(u.instancePath, h))) continue;
    handled.push(u.instancePath);
    out.push(...closestBranch(u, ctx, prefix));
  }
  for (const e of errors) {
    if (isUnion(e) || handled.some((h) => within(e.instancePath, h))) continue;
    out.push(...describe(e, prefix));
  }
  const seen = new Set<string>();
  return out.filter((x) => !seen.has(x.message) && seen.add(x.message));
}
