// What the page says on the local platform only (`voice demo` without keys): where a call really
// went and where to see it, and the refusals retrying cannot fix. Loaded with the form or the first
// browser call, never in the first load; a hosted page shows the specification's texts alone.

/** The local platform's sentences. */
export const localText = {
  /** After Call Me: the specification's success text stays, and this says what happened instead of a ring. */
  phoneCall: 'This demo runs on a local platform on this computer, so no phone rings: the call runs on its emulator.',
  /** During Test in Browser. */
  browserCall: 'This call runs on a local platform on this computer (its emulator).',
  /** The link to the call in the emulator's inspector. */
  inspector: 'See the call in the inspector',
  /** Before the terminal command that follows the call. */
  terminal: 'Follow it in a terminal:',
  /** When no model runs the assistant. */
  scripted:
    'No model is configured, so the conversation is scripted: the assistant answers with set lines. To give it a model, start voice dev with --llm URL --llm-model NAME and restart the demo with --api-url naming that voice dev (see docs/model.md).',
  /** Call Me with a number the platform cannot call (retrying cannot help). */
  badPhone: "That number can't be called. Please write it in international form: a plus sign, the country code, then the number, for example +1 415 555 0100.",
  /** Call Me on a page made for nobody (an unknown slug; retrying cannot help). */
  unknownVisitor: "This page hasn't been set up for anyone yet, so it can't call you. Please ask the person who sent you the link for yours.",
} as const;

/** The sentence for a refusal of the local Call Me webhook that retrying cannot fix, by its `error` code; undefined for the rest. */
export function refusalText(error: unknown): string | undefined {
  if (error === 'bad-phone') return localText.badPhone;
  if (error === 'unknown-visitor') return localText.unknownVisitor;
  return undefined;
}
