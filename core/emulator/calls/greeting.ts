// The assistant's opening line, by its `firstMessageMode`: at the start of a call and after a
// squad handoff or transfer to another assistant.
import type { CallSession } from './session.js';

/** The greeting for `assistant-speaks-first-with-model-generated-message`. */
export const GENERATED_GREETING = 'Hello! How can I help you today?';

/** The assistant's opening, by `firstMessageMode`. */
export async function greet(s: CallSession): Promise<void> {
  const mode = (s.assistant?.firstMessageMode as string | undefined) ?? 'assistant-speaks-first';
  const first = s.assistant?.firstMessage;
  if (mode === 'assistant-speaks-first-with-model-generated-message') await s.speak('assistant', GENERATED_GREETING, { source: 'first-message' });
  else if (mode === 'assistant-speaks-first' && typeof first === 'string' && first.trim()) await s.speak('assistant', first, { source: 'first-message' });
}
