// The root of every error core throws, so a program can tell "core refused or failed" from its own
// bugs in one check: `catch (e) { if (e instanceof VoiceError) ... }` (openai-node's OpenAIError).
// core's faces are bundled apart (the client, the emulator, the model step), so a process can hold
// two copies of this class: `instanceof VoiceError` reads a registered symbol on the prototype
// chain instead of the class identity, and answers alike for an error from either copy.
// Its `name` stays `Error` (as openai-node's root): a plain failure reads as before, and a
// subclass names itself. Tiny on purpose: the web-call client carries it within its size budget.

const BRAND = Symbol.for('voice-agent-core.VoiceError');

/** The root class of every error voice-agent-core throws. */
export class VoiceError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== VoiceError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}
Object.defineProperty(VoiceError.prototype, BRAND, { value: true });
