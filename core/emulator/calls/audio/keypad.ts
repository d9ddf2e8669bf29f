// Keys the customer presses (a scenario's `dtmf`, `voice call say ID --dtmf 12#`): their tones in
// the customer's channel (0.1 s a key, 0.1 s between keys) and, with `keypadInputPlan.enabled`, the
// digits as a user turn ("User's Keypad Entry: 123") when a delimiter is pressed or
// `timeoutSeconds` after the last key (with 0, only a delimiter sends them).
import type { CallSession } from '../session.js';
import { keypadPlanOf } from './plans.js';

/** Seconds a key's tone lasts, and the silence after it. */
export const KEY_SECONDS = 0.1;

/** The keys a keypad has. */
export const KEYS = /^[0-9*#A-D]+$/i;

/** How the platform writes keypad digits into the conversation. */
export const keypadEntry = (digits: string): string => `User's Keypad Entry: ${digits}`;

/** Digits pressed and not yet sent, per call. */
const pending = new WeakMap<CallSession, string>();

/** The customer presses `digits`; each entry the keypad plan completes is answered by `reply`. False once the call ended. */
export async function customerKeys(s: CallSession, digits: string, reply: (heard: string) => Promise<boolean>): Promise<boolean> {
  const start = s.secondsNow();
  s.audio?.tones('customer', digits);
  s.hooks?.customerSpoke();
  s.log(`The customer pressed ${digits}`);
  const plan = keypadPlanOf(s.assistant);
  const end = start + digits.length * 2 * KEY_SECONDS;
  if (!plan.enabled) {
    s.log("The assistant's keypadInputPlan is not enabled: the keys are only heard as tones", 'WARN');
    return s.wait(end - s.secondsNow());
  }
  let buffer = pending.get(s) ?? '';
  const send = async (): Promise<boolean> => {
    const entry = buffer;
    buffer = '';
    pending.delete(s);
    if (!entry) return true;
    const text = keypadEntry(entry);
    const stamp = s.stamp();
    s.push({ role: 'user', message: text, ...stamp, endTime: stamp.time, duration: 0 });
    s.audio?.afterCustomer(s.secondsNow(), 0);
    return reply(text);
  };
  for (const [i, key] of [...digits].entries()) {
    const keyEnd = start + (2 * i + 1) * KEY_SECONDS;
    if (plan.delimiters && plan.delimiters.includes(key)) {
      if (!(await s.wait(keyEnd - s.secondsNow())) || !(await send())) return false;
    } else buffer += key;
  }
  if (!(await s.wait(end - s.secondsNow()))) return false;
  pending.set(s, buffer);
  if (!buffer || plan.timeoutSeconds <= 0) return true;
  return (await s.wait(plan.timeoutSeconds - KEY_SECONDS)) && send();
}
