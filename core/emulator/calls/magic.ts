// Magic customer numbers, like a payment sandbox's test cards: calling one of them always ends
// the same way, with the platform's `endedReason` for that case.

/** What a magic number does. */
export interface MagicNumber {
  number: string;
  /** What happens, in a few words (README table, `--help`). */
  what: string;
  endedReason: string;
  /** The statuses the call passes through before `ended`. */
  path: readonly ('ringing' | 'in-progress')[];
}

/** Every magic customer number. Any other number answers and runs the conversation. */
export const MAGIC_NUMBERS: readonly MagicNumber[] = [
  { number: '+15550100001', what: 'never answers (rings for 30 s)', endedReason: 'customer-did-not-answer', path: ['ringing'] },
  { number: '+15550100002', what: 'is busy', endedReason: 'customer-busy', path: ['ringing'] },
  { number: '+15550100003', what: 'reaches voicemail (the assistant leaves its voicemailMessage)', endedReason: 'voicemail', path: ['ringing', 'in-progress'] },
  { number: '+15550100004', what: 'line fails to connect', endedReason: 'twilio-failed-to-connect-call', path: [] },
  { number: '+15550100005', what: 'answers and hangs up at once', endedReason: 'customer-ended-call', path: ['ringing', 'in-progress'] },
];

/** The magic number entry for a customer number, if it is one. */
export function magicNumber(number: unknown): MagicNumber | undefined {
  return typeof number === 'string' ? MAGIC_NUMBERS.find((m) => m.number === number) : undefined;
}
