// Arguments for a function tool made from its parameter schema, the way a model would fill
// them in a test: each property's default, else its example, else its first enum value, else a
// placeholder of its type.
import type { Json } from '../../messages/index.js';

/** A value for one JSON-schema property. */
export function valueFor(schema: Json | undefined, name = 'value', depth = 0): unknown {
  if (!schema || typeof schema !== 'object') return `sample ${name}`;
  if ('default' in schema) return schema.default;
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return depth > 4 ? [] : [valueFor(schema.items as Json | undefined, name, depth + 1)];
    case 'object':
      return depth > 4 ? {} : argumentsFor(schema, depth + 1);
    case 'null':
      return null;
    default:
      if (schema.format === 'date') return '2026-01-01';
      if (schema.format === 'date-time') return '2026-01-01T09:00:00.000Z';
      if (schema.format === 'email') return 'customer@example.com';
      return `sample ${name}`;
  }
}

/** An arguments object for a tool's `function.parameters` (every declared property filled). */
export function argumentsFor(parameters: Json | undefined, depth = 0): Json {
  const out: Json = {};
  const props = (parameters?.properties ?? {}) as Record<string, Json>;
  for (const [key, schema] of Object.entries(props)) out[key] = valueFor(schema, key, depth);
  return out;
}
