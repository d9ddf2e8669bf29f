// Template variables in an assistant's texts. The platform fills them with LiquidJS before a call
// uses them: `Hello {{name}}` with `assistantOverrides.variableValues: { name: 'Ada' }`, or
// `{{customer.number}}`. The emulator fills the same texts the same way, so the caller hears, and
// the model reads, what they would on the platform.
import type { Json } from '../../messages/index.js';
import { VoiceError } from '../../errors.js';
import { isObject } from '../../json.js';

let liquid: { parseAndRenderSync(text: string, scope: object): string } | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the template engine (LiquidJS) once. Calls and chats await it before they start, so an
 * emulator's own start (`voice demo`, `voice dev`) does not pay for loading it.
 */
export function templatesReady(): Promise<void> {
  // Dates in UTC, as the platform's servers keep them; an unknown variable is empty, as in LiquidJS.
  loading ??= import('liquidjs').then((m) => {
    // A bundle that splits this import into a chunk may hand over the CommonJS build as `default`.
    const { Liquid } = (m.Liquid ? m : (m as unknown as { default: typeof m }).default) as typeof m;
    liquid = new Liquid({ timezoneOffset: 0, ownPropertyOnly: true });
  });
  return loading;
}

const templated = (v: unknown): v is string => typeof v === 'string' && (v.includes('{{') || v.includes('{%'));

/** Each text of an assistant that is filled: its `...Message` fields, and the contents of its model's and tools' messages. */
function texts(assistant: Json, visit: (holder: Json, key: string) => void): void {
  for (const key of Object.keys(assistant)) if (key.endsWith('Message')) visit(assistant, key);
  const model = isObject(assistant.model) ? assistant.model : undefined;
  const lists = [model?.messages, ...(Array.isArray(model?.tools) ? model.tools.map((t) => (isObject(t) ? t.messages : undefined)) : [])];
  for (const list of lists) if (Array.isArray(list)) for (const m of list) if (isObject(m)) visit(m, 'content');
}

/** True once the template engine is loaded. */
export function templatesLoaded(): boolean {
  return liquid !== undefined;
}

/** True when one of the assistant's filled texts holds a template. */
export function hasTemplates(assistant: Json): boolean {
  let any = false;
  texts(assistant, (holder, key) => (any ||= templated(holder[key])));
  return any;
}

/** What the call's texts may name: the assistant's `variableValues`, then the customer and the phone number. */
export interface CallParties {
  customer?: Json | undefined;
  phoneNumber?: Json | undefined;
}

/**
 * The assistant with its texts filled from its `variableValues` and the call's parties; the same
 * object when no text holds a template. A text whose template cannot be read stays as written, and
 * `problems` says why.
 */
export function withVariables(assistant: Json, parties: CallParties, problems: string[] = []): Json {
  if (!hasTemplates(assistant)) return assistant;
  if (!liquid) throw new VoiceError('The template engine is not loaded: await templatesReady() before a call or chat starts');
  const engine = liquid;
  const filled = structuredClone(assistant);
  const values = { ...(isObject(filled.variableValues) ? filled.variableValues : {}), customer: parties.customer ?? {}, phoneNumber: parties.phoneNumber ?? {} };
  texts(filled, (holder, key) => {
    const text = holder[key];
    if (!templated(text)) return;
    try {
      holder[key] = engine.parseAndRenderSync(text, values);
    } catch (err) {
      problems.push(`${key}: ${(err as Error).message.split('\n')[0]}`);
    }
  });
  return filled;
}

/** `withVariables`, loading the template engine first when a text needs it. */
export async function fillVariables(assistant: Json, parties: CallParties, problems?: string[]): Promise<Json> {
  if (!hasTemplates(assistant)) return assistant;
  await templatesReady();
  return withVariables(assistant, parties, problems);
}
