#!/usr/bin/env node
// Derives the compact schema set in core/schemas/ from the platform's published OpenAPI document:
// facts only (property names, types, required, enums, formats, limits, unions, refs), no prose.
// Re-runnable and deterministic (sorted keys):
//   node scripts/derive-schemas.js [path/to/openapi.json]     (or VOICE_OPENAPI=path)
// Default input: ../shared/reference/openapi-merged.json relative to the repository root.
// The product and its tests read only the output, never the reference document.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const input = resolve(root, process.argv[2] ?? process.env.VOICE_OPENAPI ?? '../shared/reference/openapi-merged.json');
const outDir = join(root, 'core/schemas');
const doc = JSON.parse(readFileSync(input, 'utf8'));
const source = doc.components.schemas;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Formats a validator can check; `binary` (multipart files) is not a JSON fact.
const FORMATS = new Set(['date-time', 'uuid', 'uri']);
const KEEP = ['type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'];

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
      if (k === 'pattern') {
        const p = cleanPattern(s[k]);
        if (p !== undefined) out.pattern = p;
        continue;
      }
      out[k] = s[k];
    }
    if (s.properties) {
      out.type ??= 'object';
      out.properties = {};
      for (const [name, p] of Object.entries(s.properties)) out.properties[name] = compact(p, used);
    }
    if (s.required?.length) out.required = [...s.required];
    if (s.items) out.items = compact(s.items, used);
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

const components = {};
const operations = {};
const pending = new Set();
const take = (s) => compact(s, pending);

for (const [path, item] of Object.entries(doc.paths)) {
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
    const code = Object.keys(op.responses ?? {}).filter((c) => c.startsWith('2')).sort()[0];
    if (code) {
      entry.status = Number(code);
      const schema = op.responses[code].content?.['application/json']?.schema;
      if (schema) entry.response = take(schema);
    }
    operations[`${method.toUpperCase()} ${path}`] = entry;
  }
}

// Server messages: every member of the ServerMessage union by its `type` values, and the answers.
const messages = {};
const responses = {};
for (const branch of source.ServerMessage.properties.message.oneOf) {
  const name = refName(branch.$ref);
  pending.add(name);
  for (const type of source[name].properties.type.enum) messages[type] = name;
  const answer = name.replace(/^ServerMessage/, 'ServerMessageResponse');
  if (source[answer]) {
    pending.add(answer);
    for (const type of source[name].properties.type.enum) responses[type] = answer;
  }
}
pending.add('ServerMessage');
pending.add('ServerMessageResponse');

while (pending.size) {
  const [name] = pending;
  pending.delete(name);
  if (components[name]) continue;
  if (!source[name]) throw new Error(`reference names a missing component: ${name}`);
  const used = new Set();
  components[name] = compact(source[name], used);
  for (const u of used) if (!components[u]) pending.add(u);
}

/** The tag property of a oneOf whose branches are objects each fixing one distinct value of it. */
function tagOf(oneOf, preferred) {
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

/** Adds (or drops) discriminators so a union names its branch by tag, as the platform does. */
function discriminate(s) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) return s.forEach(discriminate);
  for (const v of Object.values(s)) discriminate(v);
  if (!s.oneOf) return;
  const tag = s.oneOf.length > 1 ? tagOf(s.oneOf, s.discriminator?.propertyName) : undefined;
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
discriminate(components);
discriminate(operations);

/** A copy with object keys sorted at every level (arrays keep their order). */
function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]));
}

/** One entry per line: small diffs, still plain JSON. */
function write(file, obj) {
  const keys = Object.keys(obj).sort();
  const lines = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(sorted(obj[k]))}`);
  writeFileSync(join(outDir, file), `{\n${lines.join(',\n')}\n}\n`);
}

mkdirSync(outDir, { recursive: true });
write('components.json', components);
write('operations.json', operations);
write('messages.json', { messages, responses });
process.stderr.write(
  `derived ${Object.keys(operations).length} operations, ${Object.keys(messages).length} server message types, ` +
    `${Object.keys(components).length} components into core/schemas/\n`,
);
