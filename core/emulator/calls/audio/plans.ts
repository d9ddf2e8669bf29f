// The assistant's timing plans as the audio loop reads them, each field with the platform's
// default when the assistant leaves it out: when to start speaking (startSpeakingPlan), when to
// stop for the customer (stopSpeakingPlan), whether the first message can be cut, and keypad input.
import type { Json } from '../../../messages/index.js';
import { isObject } from '../../../json.js';

/** A custom endpointing rule: a pattern on the assistant's last line, the customer's words, or both. */
export interface EndpointingRule {
  type: 'assistant' | 'customer' | 'both';
  assistant?: RegExp;
  customer?: RegExp;
  timeoutSeconds: number;
}

/** `startSpeakingPlan`, defaults filled in. */
export interface StartPlan {
  waitSeconds: number;
  onPunctuationSeconds: number;
  onNoPunctuationSeconds: number;
  onNumberSeconds: number;
  rules: EndpointingRule[];
  /** A smart endpointing plan is set: the local loop does not run it (the transcription plan decides). */
  smart: boolean;
}

/** `stopSpeakingPlan`, defaults filled in (phrases normalised: lower case, letters, digits, spaces and hyphens). */
export interface StopPlan {
  numWords: number;
  voiceSeconds: number;
  backoffSeconds: number;
  acknowledgementPhrases: string[];
  interruptionPhrases: string[];
}

/** `keypadInputPlan`, defaults filled in. */
export interface KeypadPlan {
  enabled: boolean;
  timeoutSeconds: number;
  delimiters: string;
}

/** The platform's acknowledgement phrases: they never interrupt the assistant. */
export const ACKNOWLEDGEMENT_PHRASES = [
  'i understand',
  'i see',
  'i got it',
  'i hear you',
  'im listening',
  'im with you',
  'right',
  'okay',
  'ok',
  'sure',
  'alright',
  'got it',
  'understood',
  'yeah',
  'yes',
  'uh-huh',
  'mm-hmm',
  'gotcha',
  'mhmm',
  'ah',
  'yeah okay',
  'yeah sure',
];

/** The platform's interruption phrases: they always interrupt, whatever `numWords` says. */
export const INTERRUPTION_PHRASES = [
  'stop',
  'shut',
  'up',
  'enough',
  'quiet',
  'silence',
  'but',
  'dont',
  'not',
  'no',
  'hold',
  'wait',
  'cut',
  'pause',
  'nope',
  'nah',
  'nevermind',
  'never',
  'bad',
  'actually',
];

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);

/** Text as phrases are compared: lower case, apostrophes and punctuation gone ("I'm" is "im"), single spaces. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A rule's pattern with its options (each off unless `enabled: true`): ignore-case, multi-line, whole-word. */
function regex(source: unknown, options: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  const on = new Set(Array.isArray(options) ? options.filter((o) => isObject(o) && o.enabled === true).map((o) => (o as Json).type) : []);
  const flags = `${on.has('ignore-case') ? 'i' : ''}${on.has('multi-line') ? 'm' : ''}`;
  try {
    return new RegExp(on.has('whole-word') ? `\\b(?:${source})\\b` : source, flags);
  } catch {
    return undefined;
  }
}

function rulesOf(list: unknown): EndpointingRule[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).flatMap((r): EndpointingRule[] => {
    const timeoutSeconds = num(r.timeoutSeconds, NaN);
    if (!Number.isFinite(timeoutSeconds)) return [];
    if (r.type === 'assistant' || r.type === 'customer') {
      const pattern = regex(r.regex, r.regexOptions);
      return pattern ? [{ type: r.type, [r.type]: pattern, timeoutSeconds }] : [];
    }
    if (r.type !== 'both') return [];
    const assistant = regex(r.assistantRegex, r.assistantRegexOptions);
    const customer = regex(r.customerRegex, r.customerRegexOptions);
    return assistant && customer ? [{ type: 'both', assistant, customer, timeoutSeconds }] : [];
  });
}

/** The assistant's `startSpeakingPlan`. */
export function startPlanOf(assistant: Json | undefined): StartPlan {
  const plan = isObject(assistant?.startSpeakingPlan) ? assistant.startSpeakingPlan : {};
  const t = isObject(plan.transcriptionEndpointingPlan) ? plan.transcriptionEndpointingPlan : {};
  return {
    waitSeconds: num(plan.waitSeconds, 0.4),
    onPunctuationSeconds: num(t.onPunctuationSeconds, 0.1),
    onNoPunctuationSeconds: num(t.onNoPunctuationSeconds, 1.5),
    onNumberSeconds: num(t.onNumberSeconds, 0.5),
    rules: rulesOf(plan.customEndpointingRules),
    smart: isObject(plan.smartEndpointingPlan) || (plan.smartEndpointingEnabled !== undefined && plan.smartEndpointingEnabled !== false),
  };
}

/** The assistant's `stopSpeakingPlan`. */
export function stopPlanOf(assistant: Json | undefined): StopPlan {
  const plan = isObject(assistant?.stopSpeakingPlan) ? assistant.stopSpeakingPlan : {};
  const phrases = (v: unknown, fallback: string[]): string[] =>
    Array.isArray(v)
      ? v
          .filter((p): p is string => typeof p === 'string')
          .map(normalise)
          .filter(Boolean)
      : fallback;
  return {
    numWords: num(plan.numWords, 0),
    voiceSeconds: num(plan.voiceSeconds, 0.2),
    backoffSeconds: num(plan.backoffSeconds, 1),
    acknowledgementPhrases: phrases(plan.acknowledgementPhrases, ACKNOWLEDGEMENT_PHRASES),
    interruptionPhrases: phrases(plan.interruptionPhrases, INTERRUPTION_PHRASES),
  };
}

/** Whether the customer may cut the assistant's first message (`firstMessageInterruptionsEnabled`, off by default). */
export function firstMessageInterruptible(assistant: Json | undefined): boolean {
  return assistant?.firstMessageInterruptionsEnabled === true;
}

/** The assistant's `keypadInputPlan`. */
export function keypadPlanOf(assistant: Json | undefined): KeypadPlan {
  const plan = isObject(assistant?.keypadInputPlan) ? assistant.keypadInputPlan : {};
  return { enabled: plan.enabled === true, timeoutSeconds: num(plan.timeoutSeconds, 2), delimiters: typeof plan.delimiters === 'string' ? plan.delimiters : '#' };
}
