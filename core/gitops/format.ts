// Writes a resource's configuration as file text with stable formatting: keys in a fixed order
// (name, type, provider first, then alphabetical) at every level, multi-line strings as block
// literals, no line folding; assistants with a system prompt as Markdown.
import { Document, isScalar, visit } from 'yaml';
import type { LocalResource } from './files.js';

const FIRST = ['name', 'type', 'provider', 'role'];

function rank(key: string): number {
  const i = FIRST.indexOf(key);
  return i === -1 ? FIRST.length : i;
}

/** A copy with object keys in the stable order, recursively. */
export function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(keys.map((k) => [k, ordered((value as Record<string, unknown>)[k])]));
  }
  return value;
}

// Strings a YAML 1.1 reader (PyYAML, old js-yaml) would take for booleans: quoted, so a file
// means the same to every tool that reads it.
const YAML11_BOOL = /^(y|yes|n|no|true|false|on|off)$/i;

function yamlText(data: unknown): string {
  const doc = new Document(ordered(data));
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && YAML11_BOOL.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

/** The system prompt a Markdown file would hold: the first message, when it is a system one. */
export function systemPrompt(data: Record<string, unknown>): string | undefined {
  const model = data.model as { messages?: unknown } | undefined;
  const first = Array.isArray(model?.messages) ? (model.messages[0] as { role?: unknown; content?: unknown } | undefined) : undefined;
  if (!first || first.role !== 'system' || typeof first.content !== 'string' || Object.keys(first).length !== 2) return undefined;
  // Markdown bodies are read trimmed, so only a trimmed, non-empty prompt round-trips.
  return first.content.trim() === first.content && first.content !== '' ? first.content : undefined;
}

/** The text of a resource file in a format. */
export function render(data: Record<string, unknown>, format: LocalResource['format']): string {
  if (format === 'json') return `${JSON.stringify(ordered(data), null, 2)}\n`;
  if (format !== 'md') return yamlText(data);
  const prompt = systemPrompt(data);
  const front = structuredClone(data);
  if (prompt !== undefined) {
    const model = front.model as { messages: unknown[] };
    model.messages = model.messages.slice(1);
    if (model.messages.length === 0) delete (model as { messages?: unknown }).messages;
  }
  const head = Object.keys(front).length ? yamlText(front) : '';
  return `---\n${head}---\n${prompt !== undefined ? `\n${prompt}\n` : ''}`;
}
