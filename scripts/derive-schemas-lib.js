// The derivation behind scripts/derive-schemas.js, as pure functions (tested with small made-up
// documents in derive-schemas.test.ts): an OpenAPI document in, the compact schema set out.
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Formats a validator can check; `binary` (multipart files) is not a JSON fact.
const FORMATS = new Set(['date-time', 'uuid', 'uri']);
const KEEP = ['type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'];

// Operations whose published body is an array of the DTO although the platform creates (and
// answers with) one object: the document's array is a publishing slip, the body is one DTO.
const ONE_OBJECT = new Set(['POST /template']);

// The reference's own notes list `/campaign/paginated` among the paginated endpoints answering
// `{ results, metadata }`; its JSON entry (from an older document) names a single Campaign.
const ANSWERS = { 'GET /campaign/paginated': 'CampaignPaginatedResponse' };

// Properties the document publishes as a bare `type: object` (its generator's fallback for a type
// it could not describe) where the values are plainly something else. The chat completions
// message (`POST /chat/completions`, OpenAI-style) gives `role` no type beside a string
// `content`: its values are role names such as `user`, strings, not objects.
const PROPERTY_TYPES = { 'ChatCompletionMessageWorkflows.role': { type: 'string' } };

const refName = (ref) => ref.split('/').pop();

/** A pattern as the platform publishes it may be a JS regex literal (`/^a$/u`): keep the body. */
function cleanPattern(p) {
  const literal = /^\/(.*)\/[a-z]*$/s.exec(p);
  if (literal) return literal[1];
  // A placeholder name instead of a regex (all capitals) is no fact about values.
  if (/^[A-Z_]+$/.test(p)) return undefined;
  return p;
}

/** The compact form of one schema node; `used` collects the components it refers to. */
function compact(s, used) {
  if (!s || typeof s !== 'object') return s;
  let out;
  if (s.$ref) {
    used.add(refName(s.$ref));
    out = { $ref: refName(s.$ref) };
  } else if (s.allOf && s.allOf.length === 1 && s.allOf[0].$ref && !s.oneOf && !s.anyOf && !s.properties) {
    used.add(refName(s.allOf[0].$ref));
    out = { $ref: refName(s.allOf[0].$ref) };
  } else {
    out = {};
    for (const k of KEEP) {
      if (s[k] === undefined) continue;
      if (k === 'format' && !FORMATS.has(s[k])) continue;
      // An empty enum in the document lists nothing, so it constrains nothing.
      if (k === 'enum' && !s[k].length) continue;
      // An enum of strings published with `type: object` describes strings.
      if (k === 'type' && s[k] === 'object' && s.enum?.length && s.enum.every((v) => typeof v === 'string')) {
        out.type = 'string';
        continue;
      }
      if (k === 'pattern') {
        const p = cleanPattern(s[k]);
        if (p !== undefined) out.pattern = p;
        continue;
      }
      out[k] = s[k];
    }
    // A field the platform takes but never answers (its reference says "not returned in the API"):
    // the one fact taken from prose, as JSON Schema's own `writeOnly`.
    if (typeof s.description === 'string' && /not returned in the API/i.test(s.description)) out.writeOnly = true;
    if (s.properties) {
      out.type ??= 'object';
      out.properties = {};
      for (const [name, p] of Object.entries(s.properties)) out.properties[name] = compact(p, used);
    }
    if (s.required?.length) out.required = [...s.required];
    if (s.items) out.items = compact(s.items, used);
    // The document sometimes puts an array's allowed values on the array itself; they belong to its items.
    if (out.type === 'array' && out.enum) {
      if (out.items && !out.items.$ref && !out.items.enum) out.items = { ...out.items, enum: out.enum };
      delete out.enum;
    }
    for (const k of ['oneOf', 'anyOf', 'allOf']) if (s[k]) out[k] = s[k].map((x) => compact(x, used));
    if (s.discriminator) out.discriminator = { propertyName: s.discriminator.propertyName };
    if (s.additionalProperties !== undefined) {
      out.additionalProperties = typeof s.additionalProperties === 'object' ? compact(s.additionalProperties, used) : s.additionalProperties;
    } else if (s.properties) {
      // The platform refuses properties its DTOs do not declare ("property x should not exist").
      out.additionalProperties = false;
    }
  }
  if (s.nullable === true) {
    if (out.type && !out.$ref) {
      out.nullable = true;
      if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else {
      out = { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** The tag property of a oneOf whose branches are objects each fixing one distinct value of it. */
function tagOf(components, oneOf, preferred) {
  const branches = oneOf.map((b) => (b.$ref ? components[b.$ref] : b));
  if (branches.some((b) => !b?.properties)) return undefined;
  const candidates = [preferred, 'type', 'provider', ...Object.keys(branches[0].properties)].filter(Boolean);
  for (const tag of new Set(candidates)) {
    const seen = new Set();
    const ok = branches.every((b) => {
      const p = b.properties[tag];
      const values = p?.const !== undefined ? [p.const] : p?.enum;
      if (!values || !b.required?.includes(tag)) return false;
      return values.every((v) => typeof v === 'string' && !seen.has(v) && seen.add(v));
    });
    if (ok) return tag;
  }
  return undefined;
}

// The document's chat message union names the call-transcript SystemMessage and UserMessage
// (`message`, `time`: a name collision between document versions), while its own example and the
// platform take OpenAI-style `{ role, content }` chat messages: that shape is accepted as well.
const CHAT_MESSAGES = 'SystemMessage,UserMessage,AssistantMessage,ToolMessage,DeveloperMessage';
function chatMessages(s) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) return s.forEach(chatMessages);
  for (const v of Object.values(s)) chatMessages(v);
  for (const k of ['oneOf', 'anyOf']) {
    if (Array.isArray(s[k]) && s[k].map((b) => b.$ref).join(',') === CHAT_MESSAGES) s[k] = [...s[k], { $ref: 'OpenAIMessage' }];
  }
}

/** Adds (or drops) discriminators so a union names its branch by tag, as the platform does. */
function discriminate(components, s) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) return s.forEach((x) => discriminate(components, x));
  for (const v of Object.values(s)) discriminate(components, v);
  // A property may be called `oneOf` (a hook filter has one): only an array is a union.
  if (!Array.isArray(s.oneOf)) return;
  const tag = s.oneOf.length > 1 ? tagOf(components, s.oneOf, s.discriminator?.propertyName) : undefined;
  if (tag) {
    s.discriminator = { propertyName: tag };
    // A tagged union only describes objects; without this a string would slip past it.
    s.type = 'object';
    return;
  }
  // Without a tag the platform's validators accept any branch that fits (overlapping branches
  // included), which is anyOf, not JSON Schema's exactly-one oneOf.
  delete s.discriminator;
  s.anyOf = s.oneOf;
  delete s.oneOf;
}
/**
 * The compact schema set of an OpenAPI document: `components` (every schema an operation or a
 * server message reaches), `operations` by `METHOD path`, and `messages` (server message types).
 */
export function derive(doc) {
  const source = doc.components?.schemas ?? {};
  const components = {};
  const operations = {};
  const pending = new Set();
  const take = (s) => compact(s, pending);

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const entry = {};
      const content = op.requestBody?.content ?? {};
      if (content['application/json']?.schema) entry.request = take(content['application/json'].schema);
      else if (content['multipart/form-data']?.schema) {
        entry.request = take(content['multipart/form-data'].schema);
        entry.multipart = true;
      }
      const code = Object.keys(op.responses ?? {})
        .filter((c) => c.startsWith('2'))
        .sort()[0];
      if (code) {
        entry.status = Number(code);
        const schema = op.responses[code].content?.['application/json']?.schema;
        if (schema) entry.response = take(schema);
      }
      const key = `${method.toUpperCase()} ${path}`;
      if (ONE_OBJECT.has(key) && entry.request?.type === 'array') entry.request = entry.request.items;
      if (ANSWERS[key]) entry.response = { $ref: ANSWERS[key] };
      operations[key] = entry;
    }
  }

  // Server messages: every member of the ServerMessage union by its `type` values, and the answers.
  const messages = {};
  const responses = {};
  for (const branch of source.ServerMessage?.properties.message.oneOf ?? []) {
    const name = refName(branch.$ref);
    pending.add(name);
    for (const type of source[name].properties.type.enum) messages[type] = name;
    const answer = name.replace(/^ServerMessage/, 'ServerMessageResponse');
    if (source[answer]) {
      pending.add(answer);
      for (const type of source[name].properties.type.enum) responses[type] = answer;
    }
  }
  for (const name of ['ServerMessage', 'ServerMessageResponse']) if (source[name]) pending.add(name);

  while (pending.size) {
    const [name] = pending;
    pending.delete(name);
    if (components[name]) continue;
    if (!source[name]) throw new Error(`reference names a missing component: ${name}`);
    const used = new Set();
    components[name] = compact(source[name], used);
    for (const u of used) if (!components[u]) pending.add(u);
  }
  for (const [key, schema] of Object.entries(PROPERTY_TYPES)) {
    const [name, property] = key.split('.');
    const published = components[name]?.properties?.[property];
    // Only the slip itself is replaced: a later document that types the property is taken as it is.
    if (published && published.type === 'object' && !published.properties && !published.enum) components[name].properties[property] = schema;
  }
  chatMessages(components);
  chatMessages(operations);
  if (!components.OpenAIMessage && source.OpenAIMessage && JSON.stringify(components).includes('"OpenAIMessage"')) components.OpenAIMessage = compact(source.OpenAIMessage, new Set());
  discriminate(components, components);
  discriminate(components, operations);
  return { components, operations, messages: { messages, responses } };
}

/** A copy with object keys sorted at every level (arrays keep their order). */
function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted(v[k])]),
  );
}

/** The JSON text of a derived file: one entry per line (small diffs), keys sorted (deterministic). */
export function serialise(obj) {
  const keys = Object.keys(obj).sort();
  const lines = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(sorted(obj[k]))}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}
