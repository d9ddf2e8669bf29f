// `language-change-detected`: a multilingual transcriber (language `multi`, `auto` or
// `Multilingual`) switches to the language it hears, and the platform says so. The emulator has no
// speech to hear: a scenario line names its language (`language: es`), and a change from the
// language the call was in is sent once, as the customer starts that line.
import type { Json } from '../../messages/index.js';
import type { CallSession } from './session.js';

const DETECTS = new Set(['multi', 'auto', 'Multilingual']);
/** The language each call was last heard in. */
const heard = new WeakMap<CallSession, string>();

/** Whether the assistant's transcriber detects the language it hears. */
export function multilingual(assistant: Json | undefined): boolean {
  const transcriber = assistant?.transcriber as Json | undefined;
  return typeof transcriber?.language === 'string' && DETECTS.has(transcriber.language);
}

/** The customer is about to say a line in `language` (a scenario's, when it names one): a change is detected and sent. */
export function hearLanguage(s: CallSession, language: string | undefined): void {
  if (!language || !multilingual(s.assistant)) return;
  const before = heard.get(s) ?? 'en';
  heard.set(s, language);
  if (language === before) return;
  s.log(`The transcriber switched to ${language} (language-change-detected)`);
  void s.send('language-change-detected', { language });
}
