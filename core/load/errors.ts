// The load generator's errors: options that cannot run. A request that got no usable answer is the
// client's ConnectionError (with its code), as for every outbound request core sends.
import { VoiceError } from '../errors.js';

/** Load options that cannot run. */
export class LoadOptionsError extends VoiceError {
  constructor(message: string) {
    super(message);
    this.name = 'LoadOptionsError';
  }
}
