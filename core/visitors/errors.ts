// The one place visitor failures are created; the CLI maps `kind` to its exit codes.
import { VoiceError } from '../errors.js';

/** What went wrong: bad input, a missing or duplicate visitor, an unreadable file, an unreachable or refusing store. */
export type VisitorErrorKind = 'invalid' | 'not-found' | 'exists' | 'corrupt' | 'auth' | 'store';

/** A visitor failure with a message meant for the person at the keyboard. */
export class VisitorError extends VoiceError {
  constructor(
    readonly kind: VisitorErrorKind,
    message: string,
    /** What to do about it, when there is something to say. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'VisitorError';
  }
}
